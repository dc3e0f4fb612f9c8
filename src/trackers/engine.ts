import type { TranscriptSegment } from "../pipeline/ports.js";
import { ModelBank, topFeatures, type LinearModel } from "./classifier.js";
import { sentenceFeatures } from "./features.js";
import type { TrackerDef } from "./format.js";
import { AnchorSet, indexWords, matchPattern, mayMatch, parsePattern, type WordIndex } from "./pattern.js";
import { readUtterance, type Sentence } from "./text.js";

export interface CompiledTracker {
  def: TrackerDef;
  patterns: Array<{ source: string; chain: ReturnType<typeof parsePattern> }>;
  exclude: Array<{ source: string; chain: ReturnType<typeof parsePattern> }>;
  model: LinearModel | null;
  anchors: AnchorSet;
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

/**
 * Patterns that do not parse are left out rather than failing every call of a
 * company: files are validated when stored, but a file stored by an earlier
 * version may hold a phrase this grammar reads differently ("50%").
 */
function parsed(sources: string[]): Array<{ source: string; chain: ReturnType<typeof parsePattern> }> {
  return sources.flatMap((source) => {
    try {
      return [{ source, chain: parsePattern(source) }];
    } catch {
      return [];
    }
  });
}

export function compile(def: TrackerDef, model: LinearModel | null): CompiledTracker {
  const patterns = parsed(def.patterns);
  return {
    def,
    patterns,
    exclude: parsed(def.exclude),
    model,
    anchors: new AnchorSet(patterns.map((p) => p.chain)),
  };
}

function fits(def: TrackerDef, role: SpeakerRole): boolean {
  return def.speaker === "either" || role === "unknown" || role === def.speaker;
}

interface Verdict {
  reason?: HitReason;
  suppressed?: string;
}

function judge(ct: CompiledTracker, s: Sentence, ix: WordIndex, features: () => string[], prob: () => number, explain: boolean): Verdict {
  const words = ix.words;
  let reason: HitReason | undefined;
  let negatedPattern: string | undefined;
  for (const p of ct.anchors.mayMatch(ix) ? ct.patterns : []) {
    if (!mayMatch(p.chain, ix)) continue;
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
    const p = prob();
    if (reason) reason.score = round(p);
    else if (p >= ct.def.threshold) reason = { by: "classifier", score: round(p) };
    if (reason && explain) reason.features = topFeatures(ct.model, features()).map(([name]) => name);
  }
  if (!reason) return negatedPattern && explain ? { suppressed: `pattern "${negatedPattern}" matched inside a negation` } : {};
  if (ct.def.skip_hypothetical && s.hypothetical) return { suppressed: "conditional or wished-for framing" };
  for (const x of ct.exclude) if (mayMatch(x.chain, ix) && matchPattern(x.chain, words)) return { suppressed: `exclusion "${x.source}"` };
  return { reason };
}

const round = (p: number) => Math.round(p * 1000) / 1000;

const banks = new WeakMap<CompiledTracker[], ModelBank>();

/**
 * Every tracker against every sentence of every segment; at most one hit per
 * tracker per segment (its first sentence that fires), in segment order.
 */
export function detect(segments: TranscriptSegment[], trackers: CompiledTracker[], opts: { explain?: boolean; suppressed?: Suppressed[] } = {}): TrackerHit[] {
  const hits: TrackerHit[] = [];
  let bank = banks.get(trackers);
  if (!bank) banks.set(trackers, (bank = new ModelBank(trackers.map((t) => t.model))));
  const index = new Map(trackers.map((t, k) => [t, k]));
  const explain = opts.explain ?? false;
  // Identical lines in one call ("Okay.", "Mm-hm.", a repeated pitch) are judged once; nothing outlives this call.
  const seen = new Map<string, Array<{ tracker: TrackerDef; sentence: string; reason: HitReason }>>();
  segments.forEach((seg, i) => {
    const role = roleOf(String(seg.speaker));
    const key = `${role}\u0000${seg.text}`;
    const again = explain || opts.suppressed ? undefined : seen.get(key);
    if (again) {
      for (const h of again) hits.push({ ...h, reason: { ...h.reason }, segment: i, t: seg.t_start, speaker: String(seg.speaker), text: seg.text });
      return;
    }
    const from = hits.length;
    const applicable = trackers.filter((ct) => fits(ct.def, role));
    if (applicable.length === 0) return;
    const done = new Set<string>();
    for (const s of readUtterance(seg.text)) {
      const ix = indexWords(s.tokens.filter((tk) => !tk.punct));
      let feats: string[] | undefined;
      let probs: Float64Array | undefined;
      const features = () => (feats ??= sentenceFeatures(s));
      for (const ct of applicable) {
        if (done.has(ct.def.id)) continue;
        const v = judge(ct, s, ix, features, () => (probs ??= bank!.scores(features()))[index.get(ct)!], explain);
        if (v.reason) {
          done.add(ct.def.id);
          hits.push({ tracker: ct.def, segment: i, t: seg.t_start, speaker: String(seg.speaker), text: seg.text, sentence: s.text, reason: v.reason });
        } else if (v.suppressed && opts.suppressed) {
          opts.suppressed.push({ tracker: ct.def.id, segment: i, sentence: s.text, why: v.suppressed });
        }
      }
    }
    seen.set(key, hits.slice(from).map(({ tracker, sentence, reason }) => ({ tracker, sentence, reason })));
  });
  return hits;
}
