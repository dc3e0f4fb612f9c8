import type { TrackerDef } from "./format.js";

/**
 * A line of a labelled call (the evaluation corpus's format, docs/analyzers.md):
 * who said it, what was said, which kinds it is. Used only when training the
 * built-in models (`npm run train:trackers`); nothing reads it at run time.
 */
export interface LabelledLine {
  speaker: "rep" | "customer";
  text: string;
  labels: string[];
  /** For a customer line, the rep line it follows (features.ts contextOf). */
  prev?: string;
}

/** Breach labels of the corpus <-> the alert types the claim trackers raise. */
const BREACH_OF_TYPE: Record<string, string> = {
  prohibited_guarantee: "breach:guarantee",
  prohibited_risk_free: "breach:risk_free",
  pressure_tactics: "breach:pressure",
  payment_data_request: "breach:sensitive_data",
  misleading_absolute_claim: "breach:absolute_claim",
};

/** The corpus label a tracker stands for; null when the corpus does not label its kind (rejection, talk trackers). */
export function labelOfTracker(t: Pick<TrackerDef, "category" | "type">): string | null {
  switch (t.category) {
    case "objection":
      return `objection:${t.type}`;
    case "buying_signal":
      return `signal:${t.type}`;
    case "next_step":
      return "next_step";
    case "discovery":
      return "discovery_question";
    case "disclosure":
      return "disclosure";
    case "prohibited_claim":
    case "sensitive_data_request":
      return BREACH_OF_TYPE[t.type] ?? null;
    default:
      return null;
  }
}
