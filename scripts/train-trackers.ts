/**
 * `npm run train:trackers`: trains the built-in trackers' classifiers from
 * their examples, the library's negatives and every labelled line of the dev
 * corpus (test/eval/corpus/dev; never the held-out test split), and writes
 * src/trackers/weights/<category>.json (committed, imported statically by
 * src/trackers/weights/index.ts so the executable carries them). Deterministic:
 * the same library and corpus always write the same files.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUILTIN_TRACKERS } from "../src/trackers/library/index.js";
import { fingerprint, trainTracker } from "../src/trackers/train.js";
import type { TrackerCategory } from "../src/trackers/format.js";
import { COMMITTED_WEIGHTS } from "../src/trackers/weights/index.js";
import { type BuiltinModels, packWeights } from "../src/trackers/weights-file.js";
import { devCalls, labelledLines, WRITERS } from "../test/eval/writers.js";

const calls = devCalls(WRITERS);
const lines = labelledLines(calls);
console.log(`dev corpus: ${calls.length} calls, ${lines.length} labelled lines`);
const byCategory = new Map<TrackerCategory, BuiltinModels>();
for (const t of BUILTIN_TRACKERS) {
  const model = trainTracker(t, BUILTIN_TRACKERS, lines);
  if (!model) continue;
  if (!byCategory.has(t.category)) byCategory.set(t.category, {});
  byCategory.get(t.category)![t.id] = { fingerprint: fingerprint(t, BUILTIN_TRACKERS), ...model };
  console.log(`${t.id}: ${t.examples.length} examples, ${Object.keys(model.weights).length} weights`);
}
const unlisted = [...byCategory.keys()].filter((c) => !(c in COMMITTED_WEIGHTS));
if (unlisted.length) {
  // A file nothing imports would leave the executable without those models: list it first.
  console.error(`no entry in src/trackers/weights/index.ts for: ${unlisted.join(", ")}; add one and run again`);
  process.exit(1);
}
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "../src/trackers/weights");
for (const [category, models] of byCategory) {
  const file = path.join(dir, `${category}.json`);
  const text = `${JSON.stringify(packWeights(models))}\n`;
  fs.writeFileSync(file, text);
  console.log(`wrote ${file} (${(text.length / 1e6).toFixed(2)} MB)`);
}
