import type { TrackerHit } from "../../../trackers/engine.js";
import { readUtterance } from "../../../trackers/text.js";
import { sentenceFeatures } from "../../../trackers/features.js";
import { hitsOf, type Evidence } from "./evidence.js";

export interface NextStepFinding {
  /** The last next step proposed or accepted that no explicit no came after. */
  agreed: TrackerHit | null;
  /** It names a day, date or clock time (not just an owner). */
  dated: boolean;
  /** A next step was proposed, agreed or not. */
  proposed: boolean;
  commitment: TrackerHit | null;
  rejection: TrackerHit | null;
}

const TIME_WORDS = /\b(week|weeks|month|months|tomorrow|tonight|today|morning|afternoon|evening|noon|eod|quarter)\b/i;

function dated(h: TrackerHit): boolean {
  const f = readUtterance(h.sentence).flatMap(sentenceFeatures);
  return f.includes("@day") || f.includes("@month") || f.includes("@clock") || TIME_WORDS.test(h.sentence);
}

const customer = (h: TrackerHit) => String(h.speaker).toLowerCase() !== "rep";

/**
 * Where the conversation ended up: the customer's last commitment, last
 * explicit no, and the last next step nobody turned down afterwards.
 */
export function nextSteps(ev: Evidence): NextStepFinding {
  const commitments = hitsOf(ev, "buying_signal").filter((h) => h.tracker.type === "commitment" && customer(h));
  const rejections = hitsOf(ev, "rejection").filter(customer);
  const steps = [...hitsOf(ev, "next_step"), ...hitsOf(ev, "buying_signal").filter((h) => h.tracker.type === "next_step_acceptance" && customer(h))].sort(
    (a, b) => a.segment - b.segment,
  );
  const rejection = rejections.at(-1) ?? null;
  const live = steps.filter((s) => !rejection || s.segment > rejection.segment);
  const agreed = live.find(dated) ?? live.at(-1) ?? null;
  const anyDated = live.some(dated);
  return { agreed, dated: anyDated, proposed: steps.length > 0, commitment: commitments.at(-1) ?? null, rejection };
}

/** call_outcome from the conversation: a commitment wins unless a no came after it; then a dated next step; else an explicit no; else no decision. */
export function outcomeOf(f: NextStepFinding): "closed_won" | "closed_lost" | "follow_up_scheduled" | "no_decision" {
  if (f.commitment && (!f.rejection || f.commitment.segment >= f.rejection.segment)) return "closed_won";
  if (f.rejection && !(f.agreed && f.agreed.segment > f.rejection.segment && f.dated)) return "closed_lost";
  if (f.agreed && f.dated) return "follow_up_scheduled";
  return "no_decision";
}
