import { z } from "zod";
import { compileTracker, type CompiledTracker } from "./match.js";
import { parseJsonWithLines, JsonLineError } from "./json-lines.js";
import { BUILTIN_TRACKERS, TRACKER_CATEGORIES, TRACKER_SPEAKERS, type TrackerDef } from "./trackers.js";

/**
 * A company's tracker override (company.settings.trackers):
 *   { "trackers": [TrackerDef...], "disable": ["builtin_id", ...], "replace_builtins": false }
 * A tracker whose id matches a built-in replaces it; new ids are added.
 */
export const TrackerDefSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9_]{1,64}$/, "id must be 1-64 characters of a-z, 0-9 and _"),
  category: z.enum(TRACKER_CATEGORIES),
  type: z.string().regex(/^[a-z0-9_]{1,64}$/, "type must be 1-64 characters of a-z, 0-9 and _"),
  speaker: z.enum(TRACKER_SPEAKERS).default("any"),
  phrases: z.array(z.string().trim().min(1, "phrase must not be empty").max(200)).min(1, "at least one phrase").max(500),
  strength: z.enum(["weak", "moderate", "strong"]).optional(),
  severity: z.enum(["low", "medium", "high", "critical"]).optional(),
  negatable: z.boolean().optional(),
});

export const TrackerOverrideSchema = z.strictObject({
  trackers: z.array(TrackerDefSchema).max(200).default([]),
  disable: z.array(z.string()).max(200).default([]),
  replace_builtins: z.boolean().default(false),
});
export type TrackerOverride = z.infer<typeof TrackerOverrideSchema>;

export class TrackerConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "TrackerConfigError";
  }
}

/** Parses and validates a tracker file; every problem names its line. */
export function parseTrackerFile(text: string, fileName = "trackers file"): TrackerOverride {
  let parsed: ReturnType<typeof parseJsonWithLines>;
  try {
    parsed = parseJsonWithLines(text);
  } catch (e) {
    if (e instanceof JsonLineError) throw new TrackerConfigError([`${fileName} line ${e.line}: invalid JSON: ${e.message.replace(/^line \d+: /, "")}`]);
    throw e;
  }
  const result = TrackerOverrideSchema.safeParse(parsed.value);
  if (!result.success) {
    throw new TrackerConfigError(
      result.error.issues.map((i) => `${fileName} line ${parsed.lineOf(i.path as (string | number)[])}: ${i.path.join(".") || "(root)"}: ${i.message}`),
    );
  }
  const problems: string[] = [];
  const known = new Set(BUILTIN_TRACKERS.map((t) => t.id));
  result.data.disable.forEach((id, n) => {
    if (!known.has(id)) problems.push(`${fileName} line ${parsed.lineOf(["disable", n])}: disable.${n}: "${id}" is not a built-in tracker`);
  });
  const seen = new Set<string>();
  result.data.trackers.forEach((t, n) => {
    if (seen.has(t.id)) problems.push(`${fileName} line ${parsed.lineOf(["trackers", n, "id"])}: trackers.${n}.id: duplicate id "${t.id}"`);
    seen.add(t.id);
    t.phrases.forEach((p, k) => {
      try {
        compileTracker({ ...t, phrases: [p] } as TrackerDef);
      } catch (err) {
        problems.push(`${fileName} line ${parsed.lineOf(["trackers", n, "phrases", k])}: trackers.${n}.phrases.${k}: ${(err as Error).message}`);
      }
    });
  });
  if (problems.length) throw new TrackerConfigError(problems);
  return result.data;
}

/** The effective tracker list of a company: built-ins, minus disabled, with overrides applied. */
export function effectiveTrackers(override: unknown): TrackerDef[] {
  if (override === undefined || override === null) return BUILTIN_TRACKERS;
  const o = TrackerOverrideSchema.parse(override);
  const custom = new Map(o.trackers.map((t) => [t.id, t as TrackerDef]));
  const base = o.replace_builtins ? [] : BUILTIN_TRACKERS.filter((t) => !o.disable.includes(t.id));
  const merged = base.map((t) => custom.get(t.id) ?? t);
  for (const t of o.trackers) if (!merged.some((m) => m.id === t.id)) merged.push(t as TrackerDef);
  return merged;
}

const cache = new Map<string, CompiledTracker[]>();

/** Compiled trackers, cached by the override's JSON (a handful of companies, each compiled once). */
export function compiledTrackers(override: unknown): CompiledTracker[] {
  const key = override === undefined || override === null ? "" : JSON.stringify(override);
  let hit = cache.get(key);
  if (!hit) {
    hit = effectiveTrackers(override).map(compileTracker);
    if (cache.size > 100) cache.clear();
    cache.set(key, hit);
  }
  return hit;
}
