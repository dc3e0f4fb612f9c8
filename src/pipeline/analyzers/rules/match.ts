import type { TranscriptSegment } from "../../ports.js";
import { normalizeText, stem } from "./normalize.js";
import type { TrackerDef } from "./trackers.js";

/** Words that turn the claim after them around ("we can't guarantee returns"). Stems, as the text is stemmed. */
const NEGATORS = new Set(["no", "not", "never", "cant", "cannot", "dont", "wont", "wouldnt", "couldnt", "shouldnt", "isnt", "arent", "didnt", "doesnt", "nobody", "noth", "neither", "nor", "without"]);

export interface CompiledTracker {
  def: TrackerDef;
  regex: RegExp;
}

export interface TrackerHit {
  tracker: TrackerDef;
  segment: number;
  t: number;
  speaker: string;
  text: string;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One phrase -> a regex source over the space-joined stems. Throws on a phrase with no words. */
export function phraseSource(phrase: string): string {
  const parts: string[] = [];
  for (const raw of phrase.trim().split(/\s+/)) {
    if (raw === "...") {
      parts.push("(?: \\S+){0,6}");
      continue;
    }
    const wild = raw.endsWith("*");
    const words = normalizeText(wild ? raw.slice(0, -1) : raw).split(" ").filter(Boolean);
    words.forEach((w, i) => {
      const last = i === words.length - 1;
      const s = stem(w);
      parts.push(" " + escape(wild && last ? s.replace(/e$/, "") : s) + (wild && last ? "\\w*" : ""));
    });
  }
  if (!parts.some((p) => p.startsWith(" "))) throw new Error(`phrase "${phrase}" has no words`);
  // Gaps glue to the words before them: " a(?: \S+){0,3} b".
  return parts.join("").replace(/^ /, "");
}

export function compileTracker(def: TrackerDef): CompiledTracker {
  const alternatives = def.phrases.map(phraseSource);
  return { def, regex: new RegExp(`(?:^| )(?:${alternatives.join("|")})(?= |$)`, "g") };
}

export function roleOf(speaker: string): "rep" | "customer" | "unknown" {
  const s = speaker.toLowerCase();
  return s === "rep" ? "rep" : s === "customer" ? "customer" : "unknown";
}

function speakerFits(tracker: TrackerDef, role: "rep" | "customer" | "unknown"): boolean {
  return tracker.speaker === "any" || role === "unknown" || role === tracker.speaker;
}

/** The first non-negated hit of each tracker in each segment, in segment order. */
export function findHits(segments: TranscriptSegment[], trackers: CompiledTracker[]): TrackerHit[] {
  const hits: TrackerHit[] = [];
  segments.forEach((seg, i) => {
    const role = roleOf(String(seg.speaker));
    const line = normalizeText(seg.text).split(" ").map(stem).join(" ");
    if (!line) return;
    for (const ct of trackers) {
      if (!speakerFits(ct.def, role)) continue;
      ct.regex.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = ct.regex.exec(line)) !== null) {
        const start = m.index + (m[0].startsWith(" ") ? 1 : 0);
        if (!(ct.def.negatable && negated(line, start))) {
          hits.push({ tracker: ct.def, segment: i, t: seg.t_start, speaker: String(seg.speaker), text: seg.text });
          break;
        }
        ct.regex.lastIndex = m.index + 1;
      }
    }
  });
  return hits;
}

function negated(line: string, start: number): boolean {
  const before = line.slice(0, start).trim().split(" ").slice(-5);
  return before.some((w) => NEGATORS.has(w));
}
