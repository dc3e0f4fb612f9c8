import { reportJsonSchema } from "../../../report/validate.js";

/** Report fields the language model writes; the rest (timeline, needs, training) come from the rules evidence. */
export const DRAFT_FIELDS = [
  "overall_score",
  "score_breakdown",
  "summary",
  "call_outcome",
  "close_likelihood",
  "objections",
  "buying_signals",
  "missed_opportunities",
  "coaching_notes",
  "rep_strengths",
  "rep_weaknesses",
  "suggested_follow_up",
  "crm_note",
  "compliance_alerts",
  "transcript_highlights",
  "confidence_level",
] as const;

export interface DraftLimits {
  /** Longest string the model may write (characters). */
  maxString: number;
  /** Longest array the model may write. */
  maxItems: number;
}

export const DEFAULT_DRAFT_LIMITS: DraftLimits = { maxString: 400, maxItems: 8 };

type Json = Record<string, any>;

/**
 * The Report JSON Schema reduced to what a grammar can enforce and a small
 * model can finish: the draft fields only, every property required, shorter
 * strings and arrays, integer ranges as enums (post-check clamps the rest).
 */
export function draftJsonSchema(limits: DraftLimits = DEFAULT_DRAFT_LIMITS): Json {
  const full = reportJsonSchema() as Json;
  const simplify = (s: Json): Json => {
    if (s.enum) return { enum: s.enum };
    switch (s.type) {
      case "object": {
        const props: Json = {};
        for (const [k, v] of Object.entries(s.properties as Json)) props[k] = simplify(v as Json);
        return { type: "object", properties: props, required: Object.keys(props), additionalProperties: false };
      }
      case "array":
        return { type: "array", items: simplify(s.items as Json), maxItems: Math.min(s.maxItems ?? limits.maxItems, limits.maxItems) };
      case "string":
        return { type: "string", maxLength: Math.min(s.maxLength ?? limits.maxString, limits.maxString) };
      case "integer":
        // Grammars know no numeric ranges: a small range becomes an enum, or a model may write digits forever.
        if (typeof s.minimum === "number" && typeof s.maximum === "number" && s.maximum - s.minimum <= 100) {
          return { enum: Array.from({ length: s.maximum - s.minimum + 1 }, (_, i) => s.minimum + i) };
        }
        return { type: "integer" };
      case "number":
        return { type: "number" };
      case "boolean":
        return { type: "boolean" };
      default:
        throw new Error(`draft schema: unsupported schema node ${JSON.stringify(s).slice(0, 80)}`);
    }
  };
  const props: Json = {};
  for (const f of DRAFT_FIELDS) props[f] = simplify(full.properties[f] as Json);
  return { type: "object", properties: props, required: [...DRAFT_FIELDS], additionalProperties: false };
}
