/**
 * `npm run eval:cv`: leave-one-writer-out cross-validation over the dev
 * batches. For each writer, the built-in models are trained on the library
 * and the other writers' labelled lines, then the rules analyzer is scored on
 * that writer's calls alone: how the analyzer does on wording it was not
 * trained on. Features and hyper-parameters are chosen on these figures, not
 * on a fit to the dev set. The test split is never read here.
 *
 *   --writers dev,dev2,dev3,dev4   the batches taking part (default: all)
 *   --only dev3                    score just this writer (trained on the others)
 *   --committed                    score the committed weights (src/trackers/weights/) as they are, without training
 *   --threshold objection=0.6,...  try another threshold per tracker category
 *   --epochs N --l2 X --pw X       try other training settings (classifier.ts)
 *   --no-lines prohibited_claim,.. train these categories on the library alone
 *   --retrain objection,...        retrain only these categories per fold, the rest stay as committed
 *                                  (a quicker look at one family; only its figures are out of fold)
 *   --kinds                        also print, pooled, each objection and signal kind's call-level counts
 */
import { BUILTIN_TRACKERS } from "../../src/trackers/library/index.js";
import { builtinModels, useBuiltinModels } from "../../src/trackers/registry.js";
import { fingerprint, trainTracker } from "../../src/trackers/train.js";
import type { BuiltinModels } from "../../src/trackers/weights-file.js";
import { prf, type Tally } from "./detections.js";
import { emptyFigures, groupTally, scoreCorpus, type CorpusFigures } from "./score-corpus.js";
import { devCalls, labelledLines, WRITERS } from "./writers.js";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const writers = (arg("writers") ?? WRITERS.join(",")).split(",");
const only = arg("only");
const committed = process.argv.includes("--committed");
const opts = {
  epochs: arg("epochs") ? Number(arg("epochs")) : undefined,
  l2: arg("l2") ? Number(arg("l2")) : undefined,
  positiveWeight: arg("pw") ? Number(arg("pw")) : undefined,
};
for (const kv of (arg("threshold") ?? "").split(",").filter(Boolean)) {
  const [category, value] = kv.split("=");
  for (const t of BUILTIN_TRACKERS) if (t.category === category || t.id === category) t.threshold = Number(value);
}

function modelsFor(trainWriters: string[]): BuiltinModels {
  const lines = labelledLines(devCalls(trainWriters));
  const noLines = (arg("no-lines") ?? "").split(",");
  const retrain = arg("retrain")?.split(",");
  // Folds only ever replace the retrained families, so the models in use hold the committed ones for the rest.
  const models: BuiltinModels = retrain ? { ...builtinModels() } : {};
  for (const t of BUILTIN_TRACKERS) {
    if (retrain && !retrain.includes(t.category)) continue;
    const m = trainTracker(t, BUILTIN_TRACKERS, noLines.includes(t.category) ? [] : lines, opts);
    if (m) models[t.id] = { fingerprint: fingerprint(t, BUILTIN_TRACKERS), ...m };
  }
  return models;
}

const f2 = (x: number) => x.toFixed(2);
function row(name: string, f: CorpusFigures): string {
  const o = prf(groupTally(f.callLevel, "objection:"));
  const s = prf(groupTally(f.callLevel, "signal:"));
  return [
    name.padEnd(8),
    String(f.calls).padStart(5),
    `${f2(o.precision)}/${f2(o.recall)}`.padStart(11),
    `${f2(s.precision)}/${f2(s.recall)}`.padStart(11),
    `${f.breachRecall.found}/${f.breachRecall.expected}`.padStart(7),
    f2(prf(groupTally(f.callLevel, "breach:")).precision).padStart(8),
    `${f.cleanFalseAlarms}/${f.cleanCalls}`.padStart(7),
    `${f.disclosureRight}/${f.calls}`.padStart(6),
    `${f.outcomeRight}/${f.calls}`.padStart(6),
    `${f.nextStepRight}/${f.calls}`.padStart(6),
  ].join("  ");
}

function pool(all: CorpusFigures[]): CorpusFigures {
  const addT = (into: Record<string, Tally>, from: Record<string, Tally>) => {
    for (const [k, v] of Object.entries(from)) {
      const t = (into[k] ??= { tp: 0, fp: 0, fn: 0 });
      (t.tp += v.tp), (t.fp += v.fp), (t.fn += v.fn);
    }
  };
  const out = emptyFigures();
  for (const f of all) {
    out.calls += f.calls;
    out.lines += f.lines;
    addT(out.callLevel, f.callLevel);
    addT(out.lineLevel, f.lineLevel);
    out.breachRecall.found += f.breachRecall.found;
    out.breachRecall.expected += f.breachRecall.expected;
    out.cleanCalls += f.cleanCalls;
    out.cleanFalseAlarms += f.cleanFalseAlarms;
    out.disclosureRight += f.disclosureRight;
    out.outcomeRight += f.outcomeRight;
    out.nextStepRight += f.nextStepRight;
    out.misses.push(...f.misses);
  }
  return out;
}

console.log(
  committed ? "committed weights (no training)" : "leave-one-writer-out: trained on the library and the other writers' lines, scored on the writer named",
);
console.log("held out  calls      obj P/R      sig P/R   breach  breach P  clean FA  discl    outc    next");
const folds: CorpusFigures[] = [];
for (const w of only ? [only] : writers) {
  if (!committed) useBuiltinModels(modelsFor(writers.filter((x) => x !== w)));
  const f = await scoreCorpus(devCalls([w]));
  folds.push(f);
  console.log(row(w, f));
  if (process.argv.includes("--misses")) console.log("  " + f.misses.join("\n  "));
}
const pooled = pool(folds);
if (folds.length > 1) console.log(row("pooled", pooled));
if (process.argv.includes("--kinds")) {
  // Where the pooled precision and recall come from: a few kinds carry most of the wrong ones.
  console.log("kind                          right  wrong  missed     P     R");
  for (const [kind, t] of Object.entries(pooled.callLevel)
    .filter(([k]) => /^(objection|signal):/.test(k))
    .sort(([a], [b]) => (a < b ? -1 : 1))) {
    const p = prf(t);
    console.log(`${kind.padEnd(28)} ${String(t.tp).padStart(6)} ${String(t.fp).padStart(6)} ${String(t.fn).padStart(7)}  ${f2(p.precision)}  ${f2(p.recall)}`);
  }
}
