import { type LinearModel, WEIGHT_SCALE } from "./classifier.js";

/** The built-in models in memory: per tracker id, its weights and the fingerprint of what it was trained from. */
export type BuiltinModels = Record<string, { fingerprint: string } & LinearModel>;

/**
 * One file of built-in models as committed (src/trackers/weights/<category>.json). A feature
 * such as "price" has a weight in many models, so names are stored once and
 * each model lists its weights as postings: pairs of (feature index minus the
 * previous one, weight in hundredths: WEIGHT_SCALE). Training rounds weights to
 * that scale, so unpacking gives back exactly the numbers trained, at about half the size
 * of one name-to-weight map per model.
 */
export interface StoredWeights {
  features: string[];
  models: Record<string, { fingerprint: string; bias: number; postings: number[] }>;
}

export function packWeights(models: BuiltinModels): StoredWeights {
  const features = [...new Set(Object.values(models).flatMap((m) => Object.keys(m.weights)))].sort();
  const index = new Map(features.map((f, i) => [f, i]));
  const packed: StoredWeights["models"] = {};
  for (const [id, m] of Object.entries(models)) {
    const postings: number[] = [];
    let last = 0;
    for (const i of Object.keys(m.weights)
      .map((f) => index.get(f)!)
      .sort((a, b) => a - b)) {
      postings.push(i - last, Math.round(m.weights[features[i]] * WEIGHT_SCALE));
      last = i;
    }
    packed[id] = { fingerprint: m.fingerprint, bias: m.bias, postings };
  }
  return { features, models: packed };
}

export function unpackWeights(stored: StoredWeights): BuiltinModels {
  const out: BuiltinModels = {};
  for (const [id, m] of Object.entries(stored.models)) {
    const weights: Record<string, number> = {};
    for (let j = 0, i = 0; j < m.postings.length; j += 2) {
      i += m.postings[j];
      weights[stored.features[i]] = m.postings[j + 1] / WEIGHT_SCALE;
    }
    out[id] = { fingerprint: m.fingerprint, bias: m.bias, weights };
  }
  return out;
}

/** The built-in models of several committed files together (each file names its own features). */
export function unpackAll(files: StoredWeights[]): BuiltinModels {
  return Object.assign({}, ...files.map(unpackWeights));
}
