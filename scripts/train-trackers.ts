/**
 * `npm run train:trackers`: trains the built-in trackers' classifiers from
 * their examples, the library's negatives and every labelled line of the dev
 * corpus (test/eval/corpus/dev; never the held-out test split), and writes
 * src/trackers/weights.json (committed, imported statically so the executable
 * carries it). Deterministic: the same library and corpus always write the
 * same file.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUILTIN_TRACKERS } from "../src/trackers/library/index.js";
import { fingerprint, trainTracker } from "../src/trackers/train.js";
import { type BuiltinModels, packWeights } from "../src/trackers/weights-file.js";
import { devCalls, labelledLines, WRITERS } from "../test/eval/writers.js";

const calls = devCalls(WRITERS);
const lines = labelledLines(calls);
console.log(`dev corpus: ${calls.length} calls, ${lines.length} labelled lines`);
const models: BuiltinModels = {};
for (const t of BUILTIN_TRACKERS) {
  const model = trainTracker(t, BUILTIN_TRACKERS, lines);
  if (!model) continue;
  models[t.id] = { fingerprint: fingerprint(t, BUILTIN_TRACKERS), ...model };
  console.log(`${t.id}: ${t.examples.length} examples, ${Object.keys(model.weights).length} weights`);
}
const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "../src/trackers/weights.json");
fs.writeFileSync(file, `${JSON.stringify(packWeights(models))}\n`);
console.log(`wrote ${file}`);
