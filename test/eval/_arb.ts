import { BUILTIN_TRACKERS } from "../../src/trackers/library/index.js";
import { compiledTrackers, useBuiltinModels } from "../../src/trackers/registry.js";
import { detect } from "../../src/trackers/engine.js";
import { fingerprint, trainTracker, type WeightsFile } from "../../src/trackers/train.js";
import { corpusTranscript } from "./corpus.js";
import { devCalls, labelledLines, WRITERS } from "./writers.js";
import { labelOfHit } from "./score-corpus.js";
type H = { lab: string; by: string; score: number; seg: number };
const writers = WRITERS as readonly string[];
const calls: Array<{ labels: Set<string>; hits: H[] }> = [];
const keep = Number(process.env.THIN ?? "1");
for (const target of writers) {
  const lines = labelledLines(devCalls(writers.filter((w) => w !== target)));
  const models: WeightsFile["models"] = {};
  for (const t of BUILTIN_TRACKERS) {
    const m = trainTracker(t, BUILTIN_TRACKERS, lines, { positiveWeight: process.env.PW ? Number(process.env.PW) : undefined, l2: process.env.L2 ? Number(process.env.L2) : undefined });
    if (m) models[t.id] = { fingerprint: fingerprint(t, BUILTIN_TRACKERS), ...m };
  }
  useBuiltinModels(models);
  const tr = compiledTrackers(undefined);
  for (const c0 of devCalls([target])) {
    let k = 0;
    const c = { ...c0, lines: c0.lines.filter((l) => !l.labels.some((x) => x.startsWith("objection")) || ((k++ * 7919 + c0.id.length) % 100) / 100 < keep) };
    const hits = detect(corpusTranscript(c).segments, tr).flatMap((h): H[] => { const lab = labelOfHit(h); return lab && /^(objection|signal):/.test(lab) ? [{ lab, by: h.reason.by, score: h.reason.score ?? 1, seg: h.segment }] : []; });
    calls.push({ labels: new Set(c.lines.flatMap((l) => l.labels)), hits });
  }
}
const PAT = Number(process.env.PAT ?? "0.5");
const eff = (h: H) => (h.by === "pattern" ? Math.max(h.score, PAT) : h.score);
for (const mode of ["none", "arbitrate"]) {
  const t: Record<string, { tp: number; fp: number; fn: number }> = { objection: { tp: 0, fp: 0, fn: 0 }, signal: { tp: 0, fp: 0, fn: 0 } };
  for (const c of calls) {
    let hits = c.hits;
    if (mode === "arbitrate") {
      const best = new Map<string, number>();
      for (const h of hits) { const k = `${h.seg}|${h.lab.split(":")[0]}`; best.set(k, Math.max(best.get(k) ?? 0, eff(h))); }
      hits = hits.filter((h) => { const fam = h.lab.split(":")[0]; const other = best.get(`${h.seg}|${fam === "objection" ? "signal" : "objection"}`) ?? -1; return best.get(`${h.seg}|${fam}`)! >= other; });
    }
    const got = new Set(hits.map((h) => h.lab));
    for (const fam of ["objection", "signal"]) {
      for (const g of got) if (g.startsWith(fam)) c.labels.has(g) ? t[fam].tp++ : t[fam].fp++;
      for (const l of c.labels) if (l.startsWith(fam + ":") && !got.has(l)) t[fam].fn++;
    }
  }
  console.log(mode, Object.entries(t).map(([k, v]) => `${k} P ${(v.tp / (v.tp + v.fp)).toFixed(3)} R ${(v.tp / (v.tp + v.fn)).toFixed(3)}`).join("  "));
}
