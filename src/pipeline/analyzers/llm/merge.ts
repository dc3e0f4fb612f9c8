import { ReportSchema, type Report } from "../../../report/schema.js";
import { StageError } from "../../ports.js";
import { postCheck, type PostCheckContext } from "../post-check.js";
import { DRAFT_FIELDS } from "./draft-schema.js";
import { groundItems } from "./ground.js";

export type Draft = Pick<Report, (typeof DRAFT_FIELDS)[number]>;

const DraftSchema = ReportSchema.pick(Object.fromEntries(DRAFT_FIELDS.map((f) => [f, true])) as { [K in (typeof DRAFT_FIELDS)[number]]: true });

const clamp = (v: unknown, max: number) => (typeof v === "number" && Number.isFinite(v) ? Math.max(0, Math.min(max, Math.round(v))) : v);

/** Model text -> a Draft. Numbers out of range are clamped (post-check's job); anything else malformed is a retryable failure. */
export function parseDraft(text: string, engine: string): Draft {
  let raw: any;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new StageError("analysis_failed", `${engine} returned output that is not JSON: ${(e as Error).message}`, true);
  }
  if (raw && typeof raw === "object") {
    raw.overall_score = clamp(raw.overall_score, 100);
    raw.close_likelihood = clamp(raw.close_likelihood, 100);
    if (raw.score_breakdown && typeof raw.score_breakdown === "object")
      for (const k of Object.keys(raw.score_breakdown)) raw.score_breakdown[k] = clamp(raw.score_breakdown[k], 10);
    for (const k of Object.keys(raw)) if (!(DRAFT_FIELDS as readonly string[]).includes(k)) delete raw[k];
    if (raw.transcript_highlights === undefined) raw.transcript_highlights = [];
  }
  const parsed = DraftSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new StageError("analysis_failed", `${engine} returned a report that does not match the schema: ${issues.join("; ")}`, true);
  }
  return parsed.data as Draft;
}

const cap = <T>(xs: T[], n: number) => xs.slice(0, n);

/** Drafts of consecutive transcript parts -> one draft: scores averaged, lists joined, the outcome of the last part. */
export function mergeDrafts(parts: Draft[]): Draft {
  if (parts.length === 1) return parts[0];
  const last = parts[parts.length - 1];
  const breakdown = { ...last.score_breakdown };
  for (const k of Object.keys(breakdown) as (keyof typeof breakdown)[]) {
    breakdown[k] = Math.round(parts.reduce((a, p) => a + p.score_breakdown[k], 0) / parts.length);
  }
  const rank = { low: 0, medium: 1, high: 2 } as const;
  return {
    overall_score: Math.round(parts.reduce((a, p) => a + p.overall_score, 0) / parts.length),
    score_breakdown: breakdown,
    summary: parts
      .map((p, i) => `Part ${i + 1}: ${p.summary}`)
      .join(" ")
      .slice(0, 4000),
    call_outcome: last.call_outcome,
    close_likelihood: last.close_likelihood,
    objections: cap(
      parts.flatMap((p) => p.objections),
      100,
    ),
    buying_signals: cap(
      parts.flatMap((p) => p.buying_signals),
      100,
    ),
    missed_opportunities: cap(
      parts.flatMap((p) => p.missed_opportunities),
      50,
    ),
    coaching_notes: parts.reduce((best, p) => (rank[p.coaching_notes.priority] > rank[best.priority] ? p.coaching_notes : best), parts[0].coaching_notes),
    rep_strengths: cap([...new Set(parts.flatMap((p) => p.rep_strengths))], 50),
    rep_weaknesses: cap([...new Set(parts.flatMap((p) => p.rep_weaknesses))], 50),
    suggested_follow_up: last.suggested_follow_up,
    crm_note: last.crm_note,
    compliance_alerts: cap(
      parts.flatMap((p) => p.compliance_alerts),
      100,
    ),
    transcript_highlights: cap(
      parts.flatMap((p) => p.transcript_highlights ?? []),
      100,
    ),
    confidence_level: parts.reduce((low, p) => (rank[p.confidence_level] < rank[low] ? p.confidence_level : low), last.confidence_level),
  };
}

/**
 * The model's judgment on top of the rules' evidence: compliance alerts and
 * highlights found by the trackers are always kept (they are tied to real
 * quotes), the model's own are kept only when post-check can find their quote;
 * its objections and signals only when their quote was said (ground.ts).
 */
export function finalizeLlmReport(draft: Draft, rules: Report, ctx: PostCheckContext): Report {
  const alerts = [...rules.compliance_alerts];
  for (const a of draft.compliance_alerts) if (!alerts.some((b) => b.type === a.type)) alerts.push(a);
  const grounded = groundItems(draft, rules, ctx.transcript);
  const highlights = [...(draft.transcript_highlights ?? []), ...(rules.transcript_highlights ?? [])].filter(
    (h, i, all) => all.findIndex((x) => x.quote === h.quote && x.label === h.label) === i,
  );
  const merged: Report = {
    ...rules,
    ...draft,
    objections: grounded.objections,
    buying_signals: grounded.buying_signals,
    compliance_alerts: cap(alerts, 100),
    transcript_highlights: cap(highlights, 100),
  };
  return postCheck(merged, ctx);
}
