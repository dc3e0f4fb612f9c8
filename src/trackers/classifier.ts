import { featureName, type FeatureKind } from "./features.js";
/**
 * A one-vs-rest logistic regression per tracker over sparse binary features,
 * trained by plain SGD in a fixed order with a seeded shuffle: the same
 * examples always give the same weights, and the same sentence the same score.
 */
export interface LinearModel {
  bias: number;
  weights: Record<string, number>;
}

/**
 * Weights are kept in hundredths, and the committed file stores them as
 * integers of this scale: leave-one-writer-out over 43 writers gave the same
 * figures as thousandths but for one outcome in 492, and the file stays under
 * 2 MB (docs/analyzers.md).
 */
export const WEIGHT_SCALE = 100;
const quantise = (v: number) => Math.round(v * WEIGHT_SCALE) / WEIGHT_SCALE;

export interface TrainingExample {
  features: string[];
  label: 0 | 1;
}

export interface TrainOptions {
  epochs?: number;
  rate?: number;
  l2?: number;
  /** Weight of a positive example relative to a negative one (positives are few). */
  positiveWeight?: number;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function train(examples: TrainingExample[], opts: TrainOptions = {}): LinearModel {
  const epochs = opts.epochs ?? 30;
  const l2 = opts.l2 ?? 1e-4;
  // Few positives against many negatives: weigh positives up so a tracker given a handful of examples still learns them.
  const positives = examples.filter((e) => e.label === 1).length;
  const pw = opts.positiveWeight ?? Math.max(2, Math.sqrt((examples.length - positives) / Math.max(1, positives)));
  const w = new Map<string, number>();
  let bias = 0;
  const order = examples.map((_, i) => i);
  const rand = rng(42);
  for (let e = 0; e < epochs; e++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const rate = (opts.rate ?? 0.5) / (1 + e * 0.2);
    for (const k of order) {
      const ex = examples[k];
      let z = bias;
      for (const f of ex.features) z += w.get(f) ?? 0;
      const g = (ex.label - sigmoid(z)) * (ex.label === 1 ? pw : 1);
      bias += rate * g;
      for (const f of ex.features) {
        const cur = w.get(f) ?? 0;
        w.set(f, cur + rate * (g - l2 * cur));
      }
    }
  }
  const weights: Record<string, number> = {};
  // Weights under 0.05 change no verdict (leave-one-writer-out over fifteen writers: the same figures as at 0.01)
  // but are a quarter of the postings every sentence walks.
  for (const [f, v] of [...w.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (Math.abs(v) >= 0.05) weights[f] = quantise(v);
  return { bias: quantise(bias), weights };
}

/** Probability that the sentence belongs to the tracker, 0..1, from its features by name: one model at a time, the plain definition a bank's sums must equal. */
export function score(model: LinearModel, features: string[]): number {
  let z = model.bias;
  for (const f of features) z += model.weights[f] ?? 0;
  return sigmoid(z);
}

/** The features that pushed a score up most, for `trackers test` explanations. */
export function topFeatures(model: LinearModel, features: string[], n = 4): Array<[string, number]> {
  return features
    .map((f) => [f, model.weights[f] ?? 0] as [string, number])
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n);
}

/** Feature parts a bank remembers before starting over: about 100 bytes each, so a few MB per bank at most. */
export const REMEMBERED_LIMIT = 100_000;

/**
 * Many models scored at once: feature -> (model, weight) postings, so a
 * sentence's features are looked up once for all trackers instead of once per
 * tracker. The postings sit end to end in two flat arrays and a feature maps
 * to its slice: one lookup and contiguous reads per feature, nothing to follow.
 */
export class ModelBank {
  /** Feature -> its postings' start in `ks`/`ws`; they end where the next feature's start. */
  private readonly at = new Map<string, number>();
  /**
   * Feature parts -> slot (-1: no model reads it), per kind and first part:
   * found by words the reader already holds, so no name is built or hashed
   * per sentence. Filled as words are met; cleared when it grows large.
   */
  private readonly bigrams = new Map<string, Map<string, number>>();
  private readonly singles = new Map<string, Map<string, number>>();
  private remembered = 0;
  /** Slot -> stamp of the last list it was put in, to de-duplicate without a set. */
  private stamps: Uint32Array;
  private stamp = 0;
  private readonly ends: Int32Array;
  private readonly ks: Int32Array;
  private readonly ws: Float64Array;
  private readonly biases: Float64Array;

  constructor(models: Array<LinearModel | null>) {
    this.biases = Float64Array.from(models.map((m) => m?.bias ?? 0));
    const lists = new Map<string, Array<[number, number]>>();
    models.forEach((m, k) => {
      if (!m) return;
      for (const [f, w] of Object.entries(m.weights)) {
        let list = lists.get(f);
        if (!list) lists.set(f, (list = []));
        list.push([k, w]);
      }
    });
    let n = 0;
    for (const list of lists.values()) n += list.length;
    this.ks = new Int32Array(n);
    this.ws = new Float64Array(n);
    this.ends = new Int32Array(lists.size);
    this.stamps = new Uint32Array(lists.size);
    let j = 0;
    let f = 0;
    for (const [name, list] of lists) {
      this.at.set(name, f);
      for (const [k, w] of list) {
        this.ks[j] = k;
        this.ws[j++] = w;
      }
      this.ends[f++] = j;
    }
  }

  /** The slot of a feature given by its parts (features.ts featureName), -1 when no model reads it. */
  slotOf(kind: FeatureKind, a: string, b = ""): number {
    // Bigrams by their first lemma, then the second; every other kind by its lemma or mark.
    const byFirst = kind === "bigram";
    const maps = byFirst ? this.bigrams : this.singles;
    const key = byFirst ? a : kind;
    const sub = byFirst ? b : a;
    const known = maps.get(key)?.get(sub);
    if (known !== undefined) return known;
    if (this.remembered >= REMEMBERED_LIMIT) {
      this.bigrams.clear();
      this.singles.clear();
      this.remembered = 0;
    }
    let m = maps.get(key);
    if (!m) maps.set(key, (m = new Map()));
    const slot = this.at.get(featureName(kind, a, b)) ?? -1;
    m.set(sub, slot);
    this.remembered++;
    return slot;
  }

  /** How many feature parts the bank holds: never more than REMEMBERED_LIMIT. */
  get remembering(): number {
    return this.remembered;
  }

  /** Starts a de-duplicated slot list: `keep` then answers true once per slot until the next `fresh`. */
  fresh(): void {
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  keep(slot: number): boolean {
    if (slot < 0 || this.stamps[slot] === this.stamp) return false;
    this.stamps[slot] = this.stamp;
    return true;
  }

  /** Probabilities for every model from feature slots (`slotOf`), from `start` when given: the same sums, in the same order, as `score` on each model and the names. */
  scoreSlots(slots: ArrayLike<number>, start: Float64Array = this.biases): Float64Array {
    const z = start.slice();
    const { ks, ws, ends } = this;
    for (let i = 0; i < slots.length; i++) {
      const f = slots[i];
      for (let j = f === 0 ? 0 : ends[f - 1], end = ends[f]; j < end; j++) z[ks[j]] += ws[j];
    }
    for (let k = 0; k < z.length; k++) z[k] = sigmoid(z[k]);
    return z;
  }

  /** Log-odds for every model from some features by name, to start `scoreSlots` from (what every sentence of a line shares). */
  partial(features: string[]): Float64Array {
    const z = this.biases.slice();
    this.add(z, features);
    return z;
  }

  private add(z: Float64Array, features: string[]): void {
    const { ks, ws, ends } = this;
    for (const name of features) {
      const f = this.at.get(name);
      if (f === undefined) continue;
      for (let j = f === 0 ? 0 : ends[f - 1], end = ends[f]; j < end; j++) z[ks[j]] += ws[j];
    }
  }
}
