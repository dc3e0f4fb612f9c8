import { TrackerFileSchema, toTrackerDef, type TrackerDef } from "./format.js";
import { compile, type CompiledTracker } from "./engine.js";
import { BUILTIN_TRACKERS } from "./library/index.js";
import { fingerprint, trainTracker } from "./train.js";
import { committedModels } from "./weights/index.js";
import type { BuiltinModels } from "./weights-file.js";

/** The effective tracker list of a company: built-ins, minus disabled, with its own added or replacing built-ins by id. */
export function effectiveTrackers(override: unknown): TrackerDef[] {
  if (override === undefined || override === null) return BUILTIN_TRACKERS;
  const o = TrackerFileSchema.parse(override);
  const custom = new Map(o.trackers.map((t) => [t.id, toTrackerDef(t)]));
  const base = o.replace_builtins ? [] : BUILTIN_TRACKERS.filter((t) => !o.disable.includes(t.id));
  const merged = base.map((t) => custom.get(t.id) ?? t);
  for (const t of custom.values()) if (!merged.some((m) => m.id === t.id)) merged.push(t);
  return merged;
}

let committed = committedModels();

/** The built-in models in use (the committed ones unless swapped). */
export function builtinModels(): BuiltinModels {
  return committed;
}

/** Swaps the built-in models (cross-validation trains its own per fold) and forgets compiled sets built from the old ones. */
export function useBuiltinModels(models: BuiltinModels): void {
  committed = models;
  cache.clear();
}

/**
 * Trackers with their models: the committed weights for a built-in whose
 * training set is unchanged, a model trained here (deterministically) for a
 * company's own or changed tracker. The examples of all trackers in the set
 * are each other's negatives.
 */
export function buildTrackers(defs: TrackerDef[]): CompiledTracker[] {
  return defs.map((d) => {
    if (d.examples.length === 0) return compile(d, null);
    const w = committed[d.id];
    if (w && w.fingerprint === fingerprint(d, defs)) return compile(d, { bias: w.bias, weights: w.weights });
    return compile(d, trainTracker(d, defs));
  });
}

const cache = new Map<string, CompiledTracker[]>();

/** Compiled trackers of a company's override, cached by its JSON (a handful of companies, each built once). */
export function compiledTrackers(override: unknown): CompiledTracker[] {
  const key = override === undefined || override === null ? "" : JSON.stringify(override);
  let hit = cache.get(key);
  if (!hit) {
    hit = buildTrackers(effectiveTrackers(override));
    if (cache.size > 100) cache.clear();
    cache.set(key, hit);
  }
  return hit;
}
