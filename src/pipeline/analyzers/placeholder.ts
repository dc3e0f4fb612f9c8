import { isHighValue } from "../../calls/high-value.js";
import { createHash } from "node:crypto";
import { SCORE_CATEGORIES, type Report, type ScoreBreakdown } from "../../report/schema.js";
import { validateReport } from "../../report/validate.js";
import type { CallRow } from "../../store/schema.js";
import type { Analyzer, AnalyzeInput } from "../ports.js";

/**
 * The deterministic placeholder analyzer: no audio is listened to, the report
 * is derived from the submission alone. The same submission gives a
 * byte-identical report on any machine and after any restart: the only source
 * of variation is a SHA-256 of the submitted fields (never ids, clocks or
 * Math.random). Numbers are illustrative but internally consistent, and the
 * report says plainly that it is a placeholder (confidence `low`).
 */
export const placeholderAnalyzer: Analyzer = {
  name: "placeholder",
  async analyze(input: AnalyzeInput): Promise<Report> {
    return placeholderReport(input.call);
  },
};

/** The fields a client submitted, in a fixed order, as the seed of everything else. */
export function submissionSeed(call: CallRow): string {
  const fields = {
    external_call_id: call.external_call_id,
    rep_name: call.rep_name,
    rep_email: call.rep_email,
    customer_name: call.customer_name,
    customer_phone: call.customer_phone,
    customer_email: call.customer_email,
    call_started_at: call.call_started_at,
    call_ended_at: call.call_ended_at,
    duration_seconds: call.duration_seconds,
    recording_url: call.recording_url,
    source_system: call.source_system,
    crm_contact_id: call.crm_contact_id,
    crm_deal_id: call.crm_deal_id,
    metadata: canonical(safeParse(call.metadata)),
    audio_sha256: call.audio_sha256,
  };
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex");
}

export function placeholderReport(call: CallRow): Report {
  const rng = new SeededRandom(submissionSeed(call));
  const highValue = isHighValue(call.metadata);
  const rep = clip(call.rep_name?.trim() || "the rep", 80);
  const customer = clip(call.customer_name?.trim() || "the customer", 80);
  const duration = callDuration(call);

  const { breakdown, overall } = drawScores(rng);

  const outcome = drawOutcome(overall, rng);
  const close = closeLikelihood(outcome, overall, rng);

  const signals =
    overall >= 55
      ? rng.sample(BUYING_SIGNALS, overall >= 75 ? 2 : 1).map((signal) => ({ signal, strength: overall >= 75 ? ("strong" as const) : ("moderate" as const) }))
      : [];
  const objections = rng
    .sample(OBJECTIONS, overall >= 70 ? 1 : 2)
    .map((o) => ({ objection: o[0], raised_by: "customer" as const, handled: breakdown.objection_handling >= 6, suggested_response: o[1] }));
  const weakest = [...SCORE_CATEGORIES].sort((a, b) => breakdown[a] - breakdown[b] || a.localeCompare(b));
  const strongest = [...weakest].reverse();
  const alerts = complianceAlerts(breakdown);

  const report = {
    overall_score: overall,
    score_breakdown: breakdown,
    summary: placeholderSummary({ rep, customer, duration, highValue, outcome, overall }),
    call_outcome: outcome,
    close_likelihood: close,
    manager_review_required: highValue || alerts.length > 0,
    customer_needs: rng.sample(NEEDS, 2),
    pain_points: rng.sample(PAINS, 2),
    objections,
    buying_signals: signals,
    missed_opportunities: weakest.slice(0, 2).map((c) => `Stronger ${label(c)} (scored ${breakdown[c]}/10)`),
    coaching_notes: {
      priority: overall < 50 ? "high" : overall < 70 ? "medium" : "low",
      detail: `Focus on ${label(weakest[0])} and ${label(weakest[1])}; keep up ${label(strongest[0])}.`,
    },
    rep_strengths: strongest.slice(0, 2).map((c) => `${cap(label(c))} (${breakdown[c]}/10)`),
    rep_weaknesses: weakest.slice(0, 2).map((c) => `${cap(label(c))} (${breakdown[c]}/10)`),
    recommended_training: weakest.slice(0, 1).map((c) => `${cap(label(c))} workshop`),
    suggested_follow_up: followUp(outcome, customer),
    crm_note: clip(`Placeholder analysis: ${outcome.replace(/_/g, " ")}, score ${overall}, close likelihood ${close}%.`, 2000),
    compliance_alerts: alerts,
    timeline: timeline(duration),
    confidence_level: "low" as const,
  };
  return validateReport(report);
}

function drawOutcome(overall: number, rng: SeededRandom): string {
  if (overall >= 80) return rng.pick(["closed_won", "follow_up_scheduled"]);
  if (overall >= 60) return rng.pick(["follow_up_scheduled", "demo_scheduled"]);
  return overall >= 40 ? "no_decision" : "closed_lost";
}

/** Compliance alerts only where the breakdown itself says compliance was poor. */
function complianceAlerts(breakdown: ScoreBreakdown): Report["compliance_alerts"] {
  if (breakdown.compliance > 2) return [];
  return [
    {
      type: "disclosure",
      severity: "medium" as const,
      detail: "Placeholder: the compliance score is low; confirm the required disclosures were given on this call.",
    },
  ];
}

/** A call "quality" drawn once; every category scatters around it, so the breakdown hangs together. */
function drawScores(rng: SeededRandom): { breakdown: ScoreBreakdown; overall: number } {
  const quality = rng.int(2, 9);
  const breakdown = {} as ScoreBreakdown;
  for (const c of SCORE_CATEGORIES) breakdown[c] = clamp(quality + rng.int(-2, 2), 0, 10);
  // overall_score is the breakdown's mean on a 0-100 scale: the two always agree.
  const sum = SCORE_CATEGORIES.reduce((s, c) => s + breakdown[c], 0);
  return { breakdown, overall: Math.round((sum / SCORE_CATEGORIES.length) * 10) };
}

function placeholderSummary(c: { rep: string; customer: string; duration: number | null; highValue: boolean; outcome: string; overall: number }): string {
  return clip(
    `Placeholder analysis: no audio was transcribed. Illustrative scores derived from the submission for a call between ${c.rep} and ${c.customer}` +
      `${c.duration ? ` (${c.duration} s)` : ""}${c.highValue ? ", flagged as a high-value opportunity" : ""}. Outcome ${c.outcome.replace(/_/g, " ")}, overall score ${c.overall}.`,
    4000,
  );
}

function closeLikelihood(outcome: string, overall: number, rng: SeededRandom): number {
  switch (outcome) {
    case "closed_won":
      return 100;
    case "closed_lost":
      return rng.int(0, 5);
    case "no_decision":
      return clamp(Math.round(overall / 2) + rng.int(-5, 5), 5, 40);
    default:
      return clamp(overall - 10 + rng.int(-5, 5), 30, 90);
  }
}

/** Phase markers at fixed shares of the call, so they always fall inside duration_seconds. */
function timeline(duration: number | null): Report["timeline"] {
  if (!duration) return [{ t: 0, phase: "opening" }];
  const marks: Array<[number, Report["timeline"][number]["phase"]]> = [
    [0, "opening"],
    [0.1, "discovery"],
    [0.4, "presentation"],
    [0.65, "objection_handling"],
    [0.8, "pricing"],
    [0.9, "closing"],
    [0.97, "wrap_up"],
  ];
  return marks.map(([share, phase]) => ({ t: Math.floor(share * duration), phase }));
}

function callDuration(call: CallRow): number | null {
  if (call.duration_seconds !== null && call.duration_seconds > 0) return call.duration_seconds;
  if (call.call_started_at && call.call_ended_at) {
    const s = (Date.parse(call.call_ended_at) - Date.parse(call.call_started_at)) / 1000;
    if (Number.isFinite(s) && s > 0) return Math.floor(s);
  }
  return null;
}

function followUp(outcome: string, customer: string): string {
  if (outcome === "closed_won") return `Send onboarding details to ${customer} and confirm the start date.`;
  if (outcome === "closed_lost") return `Log the loss reason and check back with ${customer} next quarter.`;
  if (outcome === "no_decision") return `Send ${customer} a short recap with one concrete next step and a proposed date.`;
  return `Confirm the agreed meeting with ${customer} in writing and share the materials discussed.`;
}

const NEEDS = ["Faster onboarding", "Clear pricing", "Integration with the existing CRM", "Reporting for managers", "Lower total cost", "Reliable support"];
const PAINS = ["Manual data entry", "Slow response times", "Limited visibility into the pipeline", "Rising costs", "Tool sprawl", "Missed follow-ups"];
const BUYING_SIGNALS = [
  "Asked about contract terms",
  "Asked about implementation timeline",
  "Mentioned budget is approved",
  "Requested a proposal",
  "Asked who else uses the product",
];
const OBJECTIONS: Array<[string, string]> = [
  ["Price is higher than expected", "Tie the price to the measured savings and offer a phased rollout."],
  ["Timing is not right", "Agree on a concrete date to revisit and what must be true by then."],
  ["Needs approval from others", "Offer a short session with the other decision makers."],
  ["Happy with the current tool", "Ask what they would change about it and show that difference."],
];

function label(c: string): string {
  return c.replace(/_/g, " ");
}
function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}
function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
function safeParse(json: string): Record<string, unknown> {
  try {
    const v = JSON.parse(json);
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
/** JSON with object keys sorted at every level, so key order in the submission does not matter. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** A small deterministic generator: SHA-256 in counter mode over the seed. */
class SeededRandom {
  private counter = 0;
  private pool: Buffer = Buffer.alloc(0);
  constructor(private readonly seed: string) {}
  private next32(): number {
    if (this.pool.length < 4)
      this.pool = createHash("sha256")
        .update(`${this.seed}:${this.counter++}`)
        .digest();
    const v = this.pool.readUInt32BE(0);
    this.pool = this.pool.subarray(4);
    return v;
  }
  int(lo: number, hi: number): number {
    return lo + (this.next32() % (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)];
  }
  sample<T>(xs: readonly T[], n: number): T[] {
    const pool = [...xs];
    const out: T[] = [];
    while (out.length < n && pool.length > 0) out.push(pool.splice(this.int(0, pool.length - 1), 1)[0]);
    return out;
  }
}
