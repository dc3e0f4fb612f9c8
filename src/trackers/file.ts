import { parseJsonWithLines, JsonLineError } from "./json-lines.js";
import { TrackerFileSchema, type TrackerFile } from "./format.js";
import { BUILTIN_TRACKERS } from "./library/index.js";
import { parsePattern } from "./pattern.js";

export class TrackerConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "TrackerConfigError";
  }
}

/**
 * Parses and validates a tracker file (the current format with examples and
 * patterns, or the earlier phrase-list format: both are read); every problem
 * names its line.
 */
export function parseTrackerFile(text: string, fileName = "trackers file"): TrackerFile {
  let parsed: ReturnType<typeof parseJsonWithLines>;
  try {
    parsed = parseJsonWithLines(text);
  } catch (e) {
    if (e instanceof JsonLineError) throw new TrackerConfigError([`${fileName} line ${e.line}: invalid JSON: ${e.message.replace(/^line \d+: /, "")}`]);
    throw e;
  }
  const result = TrackerFileSchema.safeParse(parsed.value);
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
    for (const key of ["patterns", "phrases", "exclude"] as const) {
      (t[key] ?? []).forEach((p, k) => {
        try {
          parsePattern(p);
        } catch (err) {
          problems.push(`${fileName} line ${parsed.lineOf(["trackers", n, key, k])}: trackers.${n}.${key}.${k}: ${(err as Error).message}`);
        }
      });
    }
  });
  if (problems.length) throw new TrackerConfigError(problems);
  return result.data;
}
