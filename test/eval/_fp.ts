import { BUILTIN_TRACKERS } from "../../src/trackers/library/index.js";
import { compiledTrackers, useBuiltinModels } from "../../src/trackers/registry.js";
import { detect } from "../../src/trackers/engine.js";
import { fingerprint, trainTracker, type WeightsFile } from "../../src/trackers/train.js";
import { corpusTranscript } from "./corpus.js";
import { devCalls, labelledLines, WRITERS } from "./writers.js";
import { labelOfHit } from "./score-corpus.js";
const target = process.argv[2];
const prefix = process.argv[3] ?? "objection:";
const train = (process.argv[4] ?? WRITERS.join(",")).split(",").filter((w) => w !== target);
const lines = labelledLines(devCalls(train));
const models: WeightsFile["models"] = {};
for (const t of BUILTIN_TRACKERS) {
  const m = trainTracker(t, BUILTIN_TRACKERS, lines);
  if (m) models[t.id] = { fingerprint: fingerprint(t, BUILTIN_TRACKERS), ...m };
}
useBuiltinModels(models);
const tr = compiledTrackers(undefined);
let fp = 0, fn = 0, tp = 0;
for (const c of devCalls([target])) {
  const t = corpusTranscript(c);
  const hits = detect(t.segments, tr);
  c.lines.forEach((l, i) => {
    const got = hits.filter((h) => h.segment === i).map((h) => ({ label: labelOfHit(h), h })).filter((x) => x.label?.startsWith(prefix));
    for (const g of got) {
      if (l.labels.includes(g.label!)) tp++;
      else { fp++; console.log(`FP ${c.id} ${g.label} [${g.h.reason.by} ${g.h.reason.score}${g.h.reason.pattern ? " " + g.h.reason.pattern : ""}] ${l.s}: ${g.h.sentence}   {labels: ${l.labels.join(",")}}`); }
    }
    for (const lab of l.labels.filter((x) => x.startsWith(prefix))) if (!got.some((g) => g.label === lab)) { fn++; if (process.argv.includes("--fn")) console.log(`FN ${c.id} ${lab}: ${l.text}`); }
  });
}
console.log({ tp, fp, fn });
