import { AppError } from "../../errors.js";
import type { Transcript, TranscriptSegment } from "../../pipeline/ports.js";

/** A cue as a parser reads it, before speakers become roles. */
export interface RawCue {
  t_start: number;
  t_end: number;
  speaker: string | null;
  text: string;
  /** Where it came from, for error messages: "cue 3 (line 12)". */
  where: string;
}

export const MAX_CUES = 20_000;
export const MAX_SECONDS = 24 * 3600;
const MAX_TEXT = 10_000;

/** Collects problems so one answer lists all of them (the first 20). */
export class Problems {
  readonly list: string[] = [];
  add(msg: string): void {
    if (this.list.length < 20) this.list.push(msg);
  }
  throwIfAny(field = "transcript"): void {
    if (this.list.length)
      throw new AppError(
        "validation_failed",
        `the transcript is not valid: ${this.list[0]}${this.list.length > 1 ? ` (and ${this.list.length - 1} more)` : ""}`,
        { errors: { [field]: this.list } },
      );
  }
}

/** "01:02:03.456", "02:03.456", "01:02:03,456" -> seconds; null when malformed. */
export function parseClock(s: string, sep: "." | ","): number | null {
  const re = sep === "." ? /^(?:(\d{1,3}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/ : /^(\d{1,3}):([0-5]\d):([0-5]\d),(\d{3})$/;
  const m = re.exec(s.trim());
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
}

/**
 * The checks every format shares: times in order and sane, text present,
 * something to analyse. Overlap between neighbours is normal (people talk over
 * each other); a cue starting before the previous one is not.
 */
export function checkCues(cues: RawCue[], problems: Problems): void {
  if (cues.length === 0) problems.add("no cues found: the transcript holds no timed text");
  if (cues.length > MAX_CUES) problems.add(`too many cues (${cues.length}; at most ${MAX_CUES})`);
  let prev: RawCue | undefined;
  for (const c of cues) {
    if (!Number.isFinite(c.t_start) || !Number.isFinite(c.t_end) || c.t_start < 0) problems.add(`${c.where}: times must be non-negative numbers`);
    else if (c.t_end < c.t_start) problems.add(`${c.where}: ends (${c.t_end}s) before it starts (${c.t_start}s)`);
    else if (c.t_end > MAX_SECONDS) problems.add(`${c.where}: ends after 24 hours (${c.t_end}s)`);
    if (!c.text.trim()) problems.add(`${c.where}: empty text`);
    else if (c.text.length > MAX_TEXT) problems.add(`${c.where}: text longer than ${MAX_TEXT} characters`);
    if (prev && c.t_start < prev.t_start)
      problems.add(`${c.where}: starts (${c.t_start}s) before the previous cue (${prev.t_start}s); cues must be in time order`);
    prev = c;
  }
}

/**
 * Speaker names -> roles. With rep_speaker, that name is the rep and every
 * other named speaker a customer; without it, names that already are roles are
 * kept and the rest are unknown. Unnamed cues stay unknown either way.
 */
export function toTranscript(cues: RawCue[], repSpeaker: string | undefined, problems: Problems): Transcript {
  const rep = repSpeaker?.trim().toLowerCase();
  if (rep !== undefined) {
    const names = new Set(cues.map((c) => c.speaker?.trim().toLowerCase()).filter(Boolean));
    if (!names.has(rep)) problems.add(`rep_speaker "${repSpeaker}" does not appear in the transcript (speakers: ${[...names].join(", ") || "none"})`);
  }
  problems.throwIfAny();
  const segments: TranscriptSegment[] = cues.map((c) => {
    const name = c.speaker?.trim().toLowerCase() ?? null;
    const speaker =
      name === null ? "unknown" : rep !== undefined ? (name === rep ? "rep" : "customer") : name === "rep" || name === "customer" ? name : "unknown";
    return { t_start: round(c.t_start), t_end: round(c.t_end), speaker, text: c.text.replace(/\s+/g, " ").trim() };
  });
  return { segments, metrics: null, language: null, model: "imported" };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
