import { BUILTIN_TRACKERS } from "../../src/trackers/library/index.js";
import { compiledTrackers, useBuiltinModels } from "../../src/trackers/registry.js";
import { detect } from "../../src/trackers/engine.js";
import { fingerprint, trainTracker, type WeightsFile } from "../../src/trackers/train.js";
import { corpusTranscript } from "./corpus.js";
import { devCalls, labelledLines, WRITERS } from "./writers.js";
import { labelOfHit } from "./score-corpus.js";
const prefix = process.argv[2] ?? "objection:";
const writers = (process.argv[3] ?? [...WRITERS, "dev7"].join(",")).split(",");
const calls: Array<{ n: number; w: string; labels: Set<string>; hits: Array<{ lab: string; by: string; score: number; seg: number; line: string; text: string }> }> = [];
for (const target of writers) {
  const lines = labelledLines(devCalls(writers.filter((w) => w !== target)));
  const models: WeightsFile["models"] = {};
  for (const t of BUILTIN_TRACKERS) {
    const m = trainTracker(t, BUILTIN_TRACKERS, lines, { positiveWeight: process.env.PW ? Number(process.env.PW) : undefined, l2: process.env.L2 ? Number(process.env.L2) : undefined });
    if (m) models[t.id] = { fingerprint: fingerprint(t, BUILTIN_TRACKERS), ...m };
  }
  useBuiltinModels(models);
  const tr = compiledTrackers(undefined);
  const keep = Number(process.env.THIN ?? "1");
  for (const c0 of devCalls([target])) {
    let k = 0;
    const c = { ...c0, lines: c0.lines.filter((l) => !l.labels.some((x) => x.startsWith("objection")) || ((k++ * 7919 + c0.id.length) % 100) / 100 < keep) };
    const hits = detect(corpusTranscript(c).segments, tr).flatMap((h) => { const lab = labelOfHit(h); return lab?.startsWith(prefix) ? [{ lab, by: h.reason.by, score: h.reason.score ?? 1, seg: h.segment, line: c.lines[h.segment].labels.join(","), text: h.sentence }] : []; });
    calls.push({ n: c.lines.filter((l) => l.s === "C").length, w: target, labels: new Set(c.lines.flatMap((l) => l.labels).filter((l) => l.startsWith(prefix))), hits });
  }
}
for (const maxPerLine of [] as number[]) for (const _ of [1, 2, 3]) for (const margin of [0, 0.2, 0.5]) {
  let tp = 0, fp = 0, fn = 0;
  for (const c of calls) {
    const bySeg = new Map<number, typeof c.hits>();
    for (const h of c.hits) bySeg.set(h.seg, [...(bySeg.get(h.seg) ?? []), h]);
    const kept = [...bySeg.values()].flatMap((hs) => {
      const eff = (h: (typeof hs)[0]) => (h.by === "pattern" ? Math.max(h.score, 0.5) : h.score);
      const sorted = [...hs].sort((a, b) => eff(b) - eff(a));
      return sorted.slice(0, maxPerLine).filter((h) => eff(h) >= eff(sorted[0]) - margin);
    });
    const got = new Set(kept.map((h) => h.lab));
    for (const g of got) c.labels.has(g) ? tp++ : fp++;
    for (const l of c.labels) if (!got.has(l)) fn++;
  }
  console.log(`max ${maxPerLine} margin ${margin}: P ${(tp / (tp + fp)).toFixed(3)} R ${(tp / (tp + fn)).toFixed(3)}`);
}
let nLab = 0; for (const c of calls) nLab += c.labels.size; console.log("calls", calls.length, "objection types labelled per call", (nLab / calls.length).toFixed(2));
for (const veto of [0]) for (const thr of [0.5, 0.6, 0.7, 0.8, 0.9]) {
  let tp = 0, fp = 0, fn = 0;
  for (const c of calls) {
    const got = new Set(c.hits.filter((h) => (h.by === "pattern" ? h.score >= veto : h.score >= thr)).map((h) => h.lab));
    for (const g of got) c.labels.has(g) ? tp++ : fp++;
    for (const l of c.labels) if (!got.has(l)) fn++;
  }
  console.log(`veto ${veto} thr ${thr}: P ${(tp / (tp + fp)).toFixed(3)} R ${(tp / (tp + fn)).toFixed(3)}`);
}

const kinds: Record<string, number> = {};
for (const c of calls) { const firstOf = new Map<string, (typeof c.hits)[0]>(); for (const h of c.hits) if (!firstOf.has(h.lab)) firstOf.set(h.lab, h);
  for (const [lab, h] of firstOf) if (!c.labels.has(lab)) { const k = h.line === "" ? "unlabelled" : h.line.includes("objection") ? "other objection" : h.line; kinds[`${h.by} ${k.split(",")[0]}`] = (kinds[`${h.by} ${k.split(",")[0]}`] ?? 0) + 1; if (process.env.SHOW) console.log(lab, h.by, h.score, "|", h.line, "|", h.text); } }
console.log(kinds);

for (const k of [0, 1, 2, 3, 5]) {
  let tp = 0, fp = 0, fn = 0;
  for (const c of calls) {
    const thr = k === 0 ? 0.5 : Math.max(0.5, 1 - k / c.n);
    const got = new Set(c.hits.filter((h) => (h.by === "pattern" ? true : h.score >= thr)).map((h) => h.lab));
    for (const g of got) c.labels.has(g) ? tp++ : fp++;
    for (const l of c.labels) if (!got.has(l)) fn++;
  }
  console.log(`k ${k}: P ${(tp / (tp + fp)).toFixed(3)} R ${(tp / (tp + fn)).toFixed(3)}`);
}
