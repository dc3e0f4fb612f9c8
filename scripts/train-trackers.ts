/**
 * `npm run train:trackers`: trains the built-in trackers' classifiers from
 * their examples and writes src/trackers/weights.json (committed, imported
 * statically so the executable carries it). Deterministic: the same library
 * always writes the same file.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUILTIN_TRACKERS } from "../src/trackers/library/index.js";
import { fingerprint, trainTracker, type WeightsFile } from "../src/trackers/train.js";

const out: WeightsFile = { models: {} };
for (const t of BUILTIN_TRACKERS) {
  const model = trainTracker(t, BUILTIN_TRACKERS);
  if (!model) continue;
  out.models[t.id] = { fingerprint: fingerprint(t, BUILTIN_TRACKERS), ...model };
  console.log(`${t.id}: ${t.examples.length} examples, ${Object.keys(model.weights).length} weights`);
}
const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "../src/trackers/weights.json");
fs.writeFileSync(file, `${JSON.stringify(out)}\n`);
console.log(`wrote ${file}`);
