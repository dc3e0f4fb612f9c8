import { z } from "zod";

/**
 * The Report of spec 2.4: a strict object, no other top-level keys. The values
 * the spec leaves open (strength, severity, label, phase, raised_by) are closed
 * enums here so every analyzer, and every consumer, speaks the same words.
 */
export const SCORE_CATEGORIES = [
  "rapport",
  "discovery",
  "needs_analysis",
  "value_articulation",
  "objection_handling",
  "active_listening",
  "talk_ratio",
  "next_steps",
  "qualification",
  "pricing_confidence",
  "closing",
  "compliance",
] as const;
export type ScoreCategory = (typeof SCORE_CATEGORIES)[number];

export const SIGNAL_STRENGTHS = ["weak", "moderate", "strong"] as const;
export const ALERT_SEVERITIES = ["low", "medium", "high", "critical"] as const;
export const SPEAKER_ROLES = ["rep", "customer", "unknown"] as const;
export const HIGHLIGHT_LABELS = ["objection", "buying_signal", "compliance", "next_step", "pain_point", "question", "commitment", "other"] as const;
export const CALL_PHASES = ["opening", "discovery", "presentation", "objection_handling", "pricing", "closing", "wrap_up"] as const;
export const CONFIDENCE_LEVELS = ["low", "medium", "high"] as const;
export const COACHING_PRIORITIES = ["low", "medium", "high"] as const;

const text = (max: number) => z.string().max(max);
const score10 = z.number().int().min(0).max(10);

export const ScoreBreakdownSchema = z.strictObject(Object.fromEntries(SCORE_CATEGORIES.map((c) => [c, score10])) as Record<ScoreCategory, typeof score10>);

export const ObjectionSchema = z.strictObject({
  objection: text(500),
  raised_by: z.enum(SPEAKER_ROLES),
  handled: z.boolean(),
  suggested_response: text(1000),
});

export const BuyingSignalSchema = z.strictObject({
  signal: text(500),
  strength: z.enum(SIGNAL_STRENGTHS),
});

export const ComplianceAlertSchema = z.strictObject({
  type: text(100),
  severity: z.enum(ALERT_SEVERITIES),
  detail: text(1000),
});

export const HighlightSchema = z.strictObject({
  speaker: text(100),
  quote: text(1000),
  label: z.enum(HIGHLIGHT_LABELS),
  t: z.number().min(0),
});

export const TimelineItemSchema = z.strictObject({
  t: z.number().min(0),
  phase: z.enum(CALL_PHASES),
});

export const CoachingNotesSchema = z.strictObject({
  priority: z.enum(COACHING_PRIORITIES),
  detail: text(2000),
});

export const ReportSchema = z.strictObject({
  overall_score: z.number().int().min(0).max(100),
  score_breakdown: ScoreBreakdownSchema,
  summary: text(4000),
  call_outcome: text(100),
  close_likelihood: z.number().int().min(0).max(100),
  manager_review_required: z.boolean().optional(),
  customer_needs: z.array(text(500)).max(50).optional(),
  pain_points: z.array(text(500)).max(50).optional(),
  objections: z.array(ObjectionSchema).max(100),
  buying_signals: z.array(BuyingSignalSchema).max(100),
  missed_opportunities: z.array(text(500)).max(50),
  coaching_notes: CoachingNotesSchema,
  rep_strengths: z.array(text(500)).max(50),
  rep_weaknesses: z.array(text(500)).max(50),
  recommended_training: z.array(text(500)).max(50).optional(),
  suggested_follow_up: text(2000),
  crm_note: text(2000),
  compliance_alerts: z.array(ComplianceAlertSchema).max(100),
  transcript_highlights: z.array(HighlightSchema).max(100).optional(),
  timeline: z.array(TimelineItemSchema).max(100),
  confidence_level: z.enum(CONFIDENCE_LEVELS),
});

export type Report = z.infer<typeof ReportSchema>;
export type ScoreBreakdown = z.infer<typeof ScoreBreakdownSchema>;

/** Key order of the spec, so a stored report reads in the documented order. */
export const REPORT_KEYS = Object.keys(ReportSchema.shape) as (keyof Report)[];
