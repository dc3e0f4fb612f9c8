import type { Report } from "../../report/schema.js";
import { reviewRequired } from "../../report/review-policy.js";
import { validateReport } from "../../report/validate.js";
import type { Company } from "../../store/companies.js";
import type { CallRow } from "../../store/schema.js";
import type { Transcript } from "../ports.js";
import { OVERALL_TOLERANCE, overallFromBreakdown } from "./post-check-rule.js";
import { normalizeText } from "./rules/normalize.js";
import { clock } from "./rules/evidence.js";

export interface PostCheckContext {
  transcript: Transcript | null;
  call: CallRow;
  company: Company;
}

interface QuoteIndex {
  joined: string;
  starts: Array<{ at: number; t: number }>;
}

const indexes = new WeakMap<Transcript, QuoteIndex>();

/** The transcript's normalised text with segment offsets, built once per transcript. */
function quoteIndex(transcript: Transcript): QuoteIndex {
  let idx = indexes.get(transcript);
  if (!idx) {
    const parts: string[] = [];
    const starts: QuoteIndex["starts"] = [];
    let at = 0;
    // Calls repeat lines ("Okay.", "Mm-hm."): each distinct line is normalised once.
    const normal = new Map<string, string>();
    for (const s of transcript.segments) {
      let n = normal.get(s.text);
      if (n === undefined) normal.set(s.text, (n = normalizeText(s.text)));
      if (!n) continue;
      starts.push({ at, t: s.t_start });
      parts.push(n);
      at += n.length + 1;
    }
    idx = { joined: `${parts.join(" ")} `, starts };
    indexes.set(transcript, idx);
  }
  return idx;
}

/** Where a quote sits in the transcript: the start time of the segment it begins in, or null when it was never said. */
export function locateQuote(transcript: Transcript | null, text: string): number | null {
  const wanted = normalizeText(text.replace(/…$/, ""));
  if (!wanted || !transcript) return null;
  const { joined, starts } = quoteIndex(transcript);
  const at = joined.indexOf(wanted);
  if (at < 0) return null;
  // The last segment starting at or before the match: binary search over the offsets.
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid].at <= at) lo = mid;
    else hi = mid - 1;
  }
  return starts[lo].t;
}

/** Quoted passages in a free-text detail: "…" or “…”. */
function quotedPassages(detail: string): string[] {
  return [...detail.matchAll(/["“]([^"”]{4,})["”]/g)].map((m) => m[1]);
}

function clampInt(n: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, Math.round(Number.isFinite(n) ? n : min)));
}

/**
 * Applied to every analyzer's report before it is stored: numbers in range and
 * consistent, every highlight a real quote at its real time, every compliance
 * alert tied to what was said and when, the review flag set by policy, then the
 * strict schema.
 */
export function postCheck(candidate: Report, ctx: PostCheckContext): Report {
  const r: Report = structuredClone(candidate);
  for (const k of Object.keys(r.score_breakdown) as (keyof Report["score_breakdown"])[]) r.score_breakdown[k] = clampInt(r.score_breakdown[k], 0, 10);
  const rule = overallFromBreakdown(r.score_breakdown);
  r.overall_score = clampInt(r.overall_score, 0, 100);
  if (Math.abs(r.overall_score - rule) > OVERALL_TOLERANCE) r.overall_score = rule;
  r.close_likelihood = clampInt(r.close_likelihood, 0, 100);

  if (r.transcript_highlights) {
    r.transcript_highlights = r.transcript_highlights.flatMap((h) => {
      const t = locateQuote(ctx.transcript, h.quote);
      return t === null ? [] : [{ ...h, t }];
    });
  }

  r.compliance_alerts = r.compliance_alerts.flatMap((a) => {
    for (const q of quotedPassages(a.detail)) {
      const t = locateQuote(ctx.transcript, q);
      if (t === null) continue;
      const stamp = clock(t);
      return [{ ...a, detail: a.detail.includes(stamp) ? a.detail : `${a.detail} (at ${stamp})`.slice(0, 1000) }];
    }
    // An absence (no disclosure) has no quote; it must still say which window it checked.
    if (/disclosure/i.test(a.type) && /\b\d+ ?s\b|\d{2}:\d{2}/.test(a.detail)) return [a];
    return [];
  });

  r.timeline = [...r.timeline].sort((a, b) => a.t - b.t);
  r.manager_review_required = reviewRequired(r, ctx.call, ctx.company.low_score_threshold);
  return validateReport(r);
}
