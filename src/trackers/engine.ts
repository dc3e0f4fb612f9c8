import type { TranscriptSegment } from "../pipeline/ports.js";
import { score, topFeatures, type LinearModel } from "./classifier.js";
import { sentenceFeatures } from "./features.js";
import type { TrackerDef } from "./format.js";
import { matchPattern, parsePattern } from "./pattern.js";
import { readUtterance, type Sentence, type Token } from "./text.js";

export interface CompiledTracker {
  def: TrackerDef;
  patterns: Array<{ source: string; chain: ReturnType<typeof parsePattern> }>;
  exclude: Array<{ source: string; chain: ReturnType<typeof parsePattern> }>;
  model: LinearModel | null;
}

export type SpeakerRole = "rep" | "customer" | "unknown";

export function roleOf(speaker: string): SpeakerRole {
  const s = speaker.toLowerCase();
  return s === "rep" ? "rep" : s === "customer" ? "customer" : "unknown";
}

/** Why a tracker fired on a sentence. */
export interface HitReason {
  by: "pattern" | "classifier";
  /** Classifier probability (also given when a pattern fired, when the tracker has a model). */
  score: number | null;
  pattern?: string;
  /** The words that carried the classifier's score most. */
  features?: string[];
}

export interface TrackerHit {
  tracker: TrackerDef;
  segment: number;
  t: number;
  speaker: string;
  /** The whole segment text. */
  text: string;
  /** The sentence that fired: the quote. */
  sentence: string;
  reason: HitReason;
}

/** A tracker that would have fired but for an exclusion (for `trackers test`). */
export interface Suppressed {
  tracker: string;
  segment: number;
  sentence: string;
  why: string;
}

export function compile(def: TrackerDef, model: LinearModel | null): CompiledTracker {
  return {
    def,
    patterns: def.patterns.map((source) => ({ source, chain: parsePattern(source) })),
    exclude: def.exclude.map((source) => ({ source, chain: parsePattern(source) })),
    model,
  };
}

function fits(def: TrackerDef, role: SpeakerRole): boolean {
  return def.speaker === "either" || role === "unknown" || role === def.speaker;
}

interface Verdict {
  reason?: HitReason;
  suppressed?: string;
}

function judge(ct: CompiledTracker, s: Sentence, words: Token[], features: () => string[], explain: boolean): Verdict {
  let reason: HitReason | undefined;
  let negatedPattern: string | undefined;
  for (const p of ct.patterns) {
    const span = matchPattern(p.chain, words);
    if (!span) continue;
    if (ct.def.negatable && words[span[0]].neg) {
      negatedPattern ??= p.source;
      continue;
    }
    reason = { by: "pattern", score: null, pattern: p.source };
    break;
  }
  if (ct.model) {
    const f = features();
    const p = score(ct.model, f);
    if (reason) reason.score = round(p);
    else if (p >= ct.def.threshold) reason = { by: "classifier", score: round(p) };
    if (reason && explain) reason.features = topFeatures(ct.model, f).map(([name]) => name);
  }
  if (!reason) return negatedPattern && explain ? { suppressed: `pattern "${negatedPattern}" matched inside a negation` } : {};
  if (ct.def.skip_hypothetical && s.hypothetical) return { suppressed: "conditional or wished-for framing" };
  for (const x of ct.exclude) if (matchPattern(x.chain, words)) return { suppressed: `exclusion "${x.source}"` };
  return { reason };
}

const round = (p: number) => Math.round(p * 1000) / 1000;

/**
 * Every tracker against every sentence of every segment; at most one hit per
 * tracker per segment (its first sentence that fires), in segment order.
 */
export function detect(segments: TranscriptSegment[], trackers: CompiledTracker[], opts: { explain?: boolean; suppressed?: Suppressed[] } = {}): TrackerHit[] {
  const hits: TrackerHit[] = [];
  const explain = opts.explain ?? false;
  segments.forEach((seg, i) => {
    const role = roleOf(String(seg.speaker));
    const applicable = trackers.filter((ct) => fits(ct.def, role));
    if (applicable.length === 0) return;
    const done = new Set<string>();
    for (const s of readUtterance(seg.text)) {
      const words = s.tokens.filter((tk) => !tk.punct);
      let feats: string[] | undefined;
      const features = () => (feats ??= sentenceFeatures(s));
      for (const ct of applicable) {
        if (done.has(ct.def.id)) continue;
        const v = judge(ct, s, words, features, explain);
        if (v.reason) {
          done.add(ct.def.id);
          hits.push({ tracker: ct.def, segment: i, t: seg.t_start, speaker: String(seg.speaker), text: seg.text, sentence: s.text, reason: v.reason });
        } else if (v.suppressed && opts.suppressed) {
          opts.suppressed.push({ tracker: ct.def.id, segment: i, sentence: s.text, why: v.suppressed });
        }
      }
    }
  });
  return hits;
}
