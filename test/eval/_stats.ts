import { BUILTIN_TRACKERS } from "../../src/trackers/library/index.js";
import { compiledTrackers, useBuiltinModels } from "../../src/trackers/registry.js";
import { detect } from "../../src/trackers/engine.js";
import { fingerprint, trainTracker, type WeightsFile } from "../../src/trackers/train.js";
import { corpusTranscript } from "./corpus.js";
import { devCalls, labelledLines, WRITERS } from "./writers.js";
import { labelOfHit } from "./score-corpus.js";
const prefix = process.argv[2] ?? "objection:";
const writers = (process.argv[3] ?? WRITERS.join(",")).split(",");
const rows: Array<{ by: string; score: number; ok: boolean }> = [];
for (const target of writers) {
  const lines = labelledLines(devCalls(writers.filter((w) => w !== target)));
  const models: WeightsFile["models"] = {};
  for (const t of BUILTIN_TRACKERS) {
    const m = trainTracker(t, BUILTIN_TRACKERS, lines);
    if (m) models[t.id] = { fingerprint: fingerprint(t, BUILTIN_TRACKERS), ...m };
  }
  useBuiltinModels(models);
  const tr = compiledTrackers(undefined);
  for (const c of devCalls([target])) {
    const hits = detect(corpusTranscript(c).segments, tr);
    for (const h of hits) {
      const lab = labelOfHit(h);
      if (!lab?.startsWith(prefix)) continue;
      rows.push({ by: h.reason.by, score: h.reason.score ?? -1, ok: c.lines[h.segment].labels.includes(lab) });
    }
  }
}
const bucket = (by: string, lo: number, hi: number) => { const r = rows.filter((x) => x.by === by && x.score >= lo && x.score < hi); return `${r.filter((x) => x.ok).length}/${r.length}`; };
for (const [lo, hi] of [[0, 0.02], [0.02, 0.05], [0.05, 0.1], [0.1, 0.2], [0.2, 0.35], [0.35, 0.5], [0.5, 0.6], [0.6, 0.7], [0.7, 0.8], [0.8, 0.9], [0.9, 1.01]]) console.log(`${lo}-${hi}: pattern ok ${bucket("pattern", lo, hi)}  classifier ok ${bucket("classifier", lo, hi)}`);
