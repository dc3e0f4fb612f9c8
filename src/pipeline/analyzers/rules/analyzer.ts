import { type Report, SCORE_CATEGORIES, type ScoreBreakdown, type ScoreCategory } from "../../../report/schema.js";
import type { AnalyzeInput, Analyzer } from "../../ports.js";
import { postCheck } from "../post-check.js";
import { overallFromBreakdown } from "../post-check-rule.js";
import { complianceAlerts } from "./compliance.js";
import { roleOf, type TrackerHit } from "../../../trackers/engine.js";
import { clock, disclosureWindow, gatherEvidence, hitsOf, quote, type Evidence } from "./evidence.js";
import { nextSteps as findNextSteps, outcomeOf, takesUpStep } from "./next-steps.js";
import { scoreBreakdown, type ObjectionFinding } from "./scores.js";
import { compiledTrackers } from "./tracker-config.js";

const OBJECTION_RESPONSES: Record<string, string> = {
  price: "Anchor on the measured value before the number: restate the cost of the problem the customer described, then show the payback period.",
  timing: "Ask what would have to be true for this to be a priority now, and tie the timeline to the customer's own deadline or cost of waiting.",
  competitor: "Ask what they like about the current option and where it falls short, then differentiate on that gap rather than on features.",
  authority: "Offer to build the internal case together and ask to bring the decision maker into the next conversation.",
  need: "Go back to discovery: ask about the cost of the current process and confirm whether the problem exists before pitching further.",
  trust: "Name the doubt back to the customer, then answer with something checkable: a reference customer, a trial, the written terms.",
  contract: "Ask which term would work and why; offer a shorter first term or a pilot rather than arguing for the long one.",
};

const CATEGORY_ADVICE: Record<ScoreCategory, string> = {
  rapport: "Open with a personal check-in and thank the customer for their time before the agenda.",
  discovery: "Ask more open questions (what, how, walk me through) before presenting.",
  needs_analysis: "Get the customer to name their pain points and what they cost before proposing a solution.",
  value_articulation: "Translate features into measurable outcomes (time saved, revenue, risk reduced).",
  objection_handling: "Acknowledge each objection, ask a clarifying question, then answer it with evidence.",
  active_listening: 'Reflect back what you heard ("so what I\'m hearing is…") and let the customer talk more.',
  talk_ratio: "Aim for the customer to talk at least as much as you do: ask, then pause.",
  next_steps: "End every call with a concrete next step: a date, a time and an owner.",
  qualification: "Qualify budget, authority, need and timeline explicitly.",
  pricing_confidence: "State the price plainly and hold it; avoid hedging or discounting unprompted.",
  closing: "Ask for the commitment directly once buying signals appear.",
  compliance: "Give the recording disclosure in the first 30 seconds; never promise returns, pressure a decision or take card or account numbers on a call.",
};

const TRAINING: Record<ScoreCategory, string> = {
  rapport: "Rapport building",
  discovery: "Discovery questioning",
  needs_analysis: "Needs analysis",
  value_articulation: "Value selling",
  objection_handling: "Objection handling",
  active_listening: "Active listening",
  talk_ratio: "Conversation balance",
  next_steps: "Securing next steps",
  qualification: "Qualification (BANT)",
  pricing_confidence: "Pricing conversations",
  closing: "Closing techniques",
  compliance: "Sales compliance and disclosures",
};

/** A rep turn soon after the objection that engages with it (acknowledges, explains or gives value) counts as handling. */
function wasHandled(ev: Evidence, hit: TrackerHit): boolean {
  const craft = new Set(["listening", "value", "discovery", "qualification"]);
  for (let i = hit.segment + 1; i < Math.min(ev.segments.length, hit.segment + 3); i++) {
    const seg = ev.segments[i];
    if (roleOf(String(seg.speaker)) === "customer") continue;
    if (ev.hits.some((h) => h.segment === i && craft.has(h.tracker.category))) return true;
    if (seg.text.trim().split(/\s+/).length >= 15) return true;
  }
  return false;
}

function firstPerType(hits: TrackerHit[]): TrackerHit[] {
  const seen = new Set<string>();
  return hits.filter((h) => {
    if (seen.has(h.tracker.type)) return false;
    seen.add(h.tracker.type);
    return true;
  });
}

function emptyReport(reason: string): Report {
  const breakdown = Object.fromEntries(SCORE_CATEGORIES.map((c) => [c, 0])) as ScoreBreakdown;
  return {
    overall_score: 0,
    score_breakdown: breakdown,
    summary: `No speech was recognised in this call (${reason}), so nothing could be analysed. Scores are zero because there is no evidence, not because the call was bad.`,
    call_outcome: "no_speech",
    close_likelihood: 0,
    customer_needs: [],
    pain_points: [],
    objections: [],
    buying_signals: [],
    missed_opportunities: [],
    coaching_notes: { priority: "low", detail: "No coaching possible: no speech was recognised. Check the recording and the transcription model." },
    rep_strengths: [],
    rep_weaknesses: [],
    recommended_training: [],
    suggested_follow_up: "Check the recording: it contains no recognisable speech.",
    crm_note: "Call recording contained no recognisable speech; not analysed.",
    compliance_alerts: [],
    transcript_highlights: [],
    timeline: [],
    confidence_level: "low",
  };
}

/** The deterministic rules report: every item is a tracker hit with its quote and time. */
export function buildRulesReport(input: AnalyzeInput, ev: Evidence): Report {
  if (ev.segments.length === 0) return emptyReport(input.transcript ? "the transcript is empty" : "no transcript was available");

  const objections: ObjectionFinding[] = firstPerType(hitsOf(ev, "objection")).map((hit) => ({ hit, handled: wasHandled(ev, hit) }));
  const alerts = complianceAlerts(ev);
  const breakdown = scoreBreakdown(ev, objections, alerts, findNextSteps(ev));
  const signals = firstPerType(hitsOf(ev, "buying_signal").filter((h) => takesUpStep(ev, h)));
  const steps = findNextSteps(ev);
  const commitments = steps.commitment ? [steps.commitment] : [];
  const nextSteps = steps.agreed ? [steps.agreed] : [];
  const pains = hitsOf(ev, "pain_point");
  const outcome = outcomeOf(steps);
  const likelihood = closeLikelihood(signals, nextSteps, objections, outcome);

  const { ranked, weakest, strongest } = rankCategories(breakdown);

  const missed = missedOpportunities(ev, { objections, signals, nextSteps, outcome });
  const highlights = highlightsOf(ev, { objections, signals, nextSteps, commitments, pains });

  const timeline = buildTimeline(ev, objections);
  const summary = summaryOf(ev, { objections, signals, nextSteps, alerts, outcome, proposed: steps.proposed });

  const coaching = coachingNotes(alerts, weakest);
  const followUp = followUpOf(outcome, nextSteps, objections);

  const crm = crmNoteOf({ objections, signals, alerts, outcome, likelihood });

  return {
    overall_score: overallFromBreakdown(breakdown),
    score_breakdown: breakdown,
    summary: summary.slice(0, 4000),
    call_outcome: outcome,
    close_likelihood: likelihood,
    customer_needs: firstPerType(hitsOf(ev, "pain_point").filter((h) => /need|want|looking for/i.test(h.sentence))).map(
      (h) => `${quote(h.sentence)} (${clock(h.t)})`,
    ),
    pain_points: pains.slice(0, 10).map((h) => `${quote(h.sentence)} (${clock(h.t)})`),
    objections: objections.map((o) => ({
      objection: `${o.hit.tracker.type} at ${clock(o.hit.t)}: "${quote(o.hit.sentence, 400)}"`,
      raised_by: roleOf(o.hit.speaker) === "unknown" ? "unknown" : roleOf(o.hit.speaker),
      handled: o.handled,
      suggested_response: OBJECTION_RESPONSES[o.hit.tracker.type] ?? "Acknowledge the concern, ask a clarifying question and answer with evidence.",
    })),
    buying_signals: signals.map((s) => ({
      signal: `${s.tracker.type} at ${clock(s.t)}: "${quote(s.sentence, 400)}"`,
      strength: s.tracker.strength ?? "moderate",
    })),
    missed_opportunities: missed.slice(0, 50),
    coaching_notes: coaching,
    rep_strengths: strongest.slice(0, 5).map(([c, v]) => `${c} (${v}/10)`),
    rep_weaknesses: ranked.filter(([, v]) => v <= 4).map(([c, v]) => `${c} (${v}/10)`),
    recommended_training: weakest.map(([c]) => TRAINING[c]),
    suggested_follow_up: followUp.slice(0, 2000),
    crm_note: crm.slice(0, 2000),
    compliance_alerts: alerts,
    transcript_highlights: highlights,
    timeline,
    confidence_level: ev.speakersKnown && ev.segments.length >= 10 ? "medium" : "low",
  };
}

/** Categories from weakest to strongest (ties by name); the three weakest at 6 or less, the strong ones at 8 or more. */
function rankCategories(breakdown: ScoreBreakdown) {
  const ranked = (Object.entries(breakdown) as [ScoreCategory, number][]).sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  return { ranked, weakest: ranked.slice(0, 3).filter(([, v]) => v <= 6), strongest: ranked.filter(([, v]) => v >= 8).reverse() };
}

type Hit = TrackerHit;
type Outcome = ReturnType<typeof outcomeOf>;
interface Findings {
  objections: ObjectionFinding[];
  signals: Hit[];
  alerts: Report["compliance_alerts"];
  outcome: Outcome;
}

const listOf = (xs: string[]) => (xs.length ? xs.join(", ") : "none");

function summaryOf(ev: Evidence, f: Findings & { nextSteps: Hit[]; proposed: boolean }): string {
  const { objections, signals, nextSteps, alerts, outcome } = f;
  const minutes = clock(ev.duration);
  return (
    `Call of ${minutes} with ${ev.segments.length} transcript segments. ` +
    `Objections: ${listOf(objections.map((o) => `${o.hit.tracker.type} at ${clock(o.hit.t)}${o.handled ? " (handled)" : " (not handled)"}`))}. ` +
    `Buying signals: ${listOf(signals.map((s) => `${s.tracker.type} at ${clock(s.t)}`))}. ` +
    `Next steps: ${nextSteps.length ? `agreed at ${clock(nextSteps[0].t)}` : f.proposed ? "proposed, not agreed" : "none agreed"}. ` +
    `Compliance: ${alerts.length ? alerts.map((a) => a.type).join(", ") : "no issues found"}. ` +
    `Outcome: ${outcome}. Scored by trackers (example-trained classifiers and phrase patterns), not by a language model.`
  );
}

function crmNoteOf({ objections, signals, alerts, outcome, likelihood }: Findings & { likelihood: number }): string {
  return `Outcome ${outcome}; close likelihood ${likelihood}%. Objections: ${listOf(objections.map((o) => o.hit.tracker.type))}. Signals: ${listOf(signals.map((s) => s.tracker.type))}. ${
    alerts.length ? `Compliance alerts: ${alerts.map((a) => a.type).join(", ")}.` : "No compliance alerts."
  }`;
}

/** 15 + the first four buying signals by strength + 15 for an agreed next step, less 8 per unhandled objection; a won or lost outcome bounds it. */
function closeLikelihood(signals: Hit[], nextSteps: Hit[], objections: ObjectionFinding[], outcome: Outcome): number {
  const weight = { strong: 20, moderate: 10, weak: 5 } as const;
  let likelihood = 15 + signals.slice(0, 4).reduce((a, s) => a + weight[s.tracker.strength ?? "moderate"], 0) + (nextSteps.length ? 15 : 0);
  likelihood -= 8 * objections.filter((o) => !o.handled).length;
  if (outcome === "closed_won") likelihood = Math.max(likelihood, 90);
  if (outcome === "closed_lost") likelihood = Math.min(likelihood, 10);
  return Math.max(0, Math.min(100, likelihood));
}

function missedOpportunities(ev: Evidence, f: { objections: ObjectionFinding[]; signals: Hit[]; nextSteps: Hit[]; outcome: Outcome }): string[] {
  const missed: string[] = [];
  for (const o of f.objections)
    if (!o.handled) missed.push(`${o.hit.tracker.type} objection at ${clock(o.hit.t)} was not addressed: "${quote(o.hit.sentence, 160)}"`);
  if (hitsOf(ev, "discovery").length === 0) missed.push("No open discovery questions were asked.");
  if (hitsOf(ev, "qualification").length === 0) missed.push("Budget, authority and timeline were not qualified.");
  if (f.nextSteps.length === 0) missed.push("The call ended without an agreed next step.");
  if (f.signals.length > 0 && hitsOf(ev, "closing_ask").length === 0 && f.outcome !== "closed_won")
    missed.push(`Buying signal at ${clock(f.signals[0].t)} was not followed by a request for commitment.`);
  return missed;
}

function highlightsOf(
  ev: Evidence,
  f: { objections: ObjectionFinding[]; signals: Hit[]; nextSteps: Hit[]; commitments: Hit[]; pains: Hit[] },
): Report["transcript_highlights"] {
  const { objections, signals, nextSteps, commitments, pains } = f;
  return [
    ...objections.map((o) => ({ h: o.hit, label: "objection" as const })),
    ...signals.map((h) => ({ h, label: "buying_signal" as const })),
    ...[...hitsOf(ev, "prohibited_claim"), ...hitsOf(ev, "sensitive_data_request")].map((h) => ({ h, label: "compliance" as const })),
    ...nextSteps.map((h) => ({ h, label: "next_step" as const })),
    ...commitments.slice(0, 1).map((h) => ({ h, label: "commitment" as const })),
    ...pains.slice(0, 3).map((h) => ({ h, label: "pain_point" as const })),
    ...hitsOf(ev, "discovery")
      .slice(0, 3)
      .map((h) => ({ h, label: "question" as const })),
  ]
    .sort((a, b) => a.h.t - b.h.t || a.h.segment - b.h.segment || a.label.localeCompare(b.label))
    .filter((x, i, all) => all.findIndex((y) => y.h.segment === x.h.segment && y.label === x.label) === i)
    .slice(0, 100)
    .map(({ h, label }) => ({ speaker: h.speaker, quote: quote(h.sentence, 1000), label, t: h.t }));
}

function coachingNotes(alerts: Report["compliance_alerts"], weakest: [ScoreCategory, number][]): Report["coaching_notes"] {
  const coachingPriority =
    alerts.some((a) => a.severity === "critical" || a.severity === "high") || (weakest[0] && weakest[0][1] <= 3) ? "high" : weakest.length ? "medium" : "low";
  const coachingDetail =
    [
      ...(alerts.length ? [`Compliance first: ${alerts.map((a) => a.type).join(", ")}. ${CATEGORY_ADVICE.compliance}`] : []),
      ...weakest.filter(([c]) => c !== "compliance" || !alerts.length).map(([c, v]) => `${c} (${v}/10): ${CATEGORY_ADVICE[c]}`),
    ].join(" ") || "Solid call across the board; keep doing what worked.";

  return { priority: coachingPriority, detail: coachingDetail.slice(0, 2000) };
}

function followUpOf(outcome: Outcome, nextSteps: Hit[], objections: ObjectionFinding[]): string {
  return outcome === "closed_won"
    ? "Send the agreement and onboarding plan the customer asked for, and confirm the start date in writing."
    : nextSteps.length
      ? `Confirm the next step agreed at ${clock(nextSteps[0].t)} in writing: "${quote(nextSteps[0].sentence, 300)}"`
      : objections.length
        ? `Follow up on the open ${objections.map((o) => o.hit.tracker.type).join(" and ")} objection${objections.length > 1 ? "s" : ""} and propose a concrete next meeting.`
        : "Propose a concrete next meeting with a date and an agenda.";
}

function buildTimeline(ev: Evidence, objections: ObjectionFinding[]): Report["timeline"] {
  const first = (c: Parameters<typeof hitsOf>[1]) => hitsOf(ev, c)[0]?.t;
  const marks: Array<[Report["timeline"][number]["phase"], number | undefined]> = [
    ["opening", ev.segments[0].t_start],
    ["discovery", first("discovery") ?? first("qualification")],
    ["presentation", first("value")],
    ["objection_handling", objections[0]?.hit.t],
    ["pricing", first("price_mention")],
    ["closing", first("closing_ask") ?? hitsOf(ev, "buying_signal").find((h) => h.tracker.type === "commitment")?.t],
    ["wrap_up", ev.segments.length > 1 ? ev.segments[ev.segments.length - 1].t_start : undefined],
  ];
  return marks
    .filter((m): m is [Report["timeline"][number]["phase"], number] => m[1] !== undefined)
    .sort((a, b) => a[1] - b[1])
    .map(([phase, t]) => ({ t, phase }));
}

export class RulesAnalyzer implements Analyzer {
  readonly name = "rules";

  async analyze(input: AnalyzeInput): Promise<Report> {
    const ev = gatherEvidence(
      input.transcript,
      compiledTrackers(input.company.settings.trackers),
      disclosureWindow(input.company.settings as Record<string, unknown>),
    );
    return postCheck(buildRulesReport(input, ev), { transcript: input.transcript, call: input.call, company: input.company });
  }
}
