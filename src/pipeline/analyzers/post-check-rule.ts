import type { ScoreBreakdown } from "../../report/schema.js";

/** overall_score = mean of the breakdown on the 0-100 scale (rounded). Every analyzer's report is held to it. */
export function overallFromBreakdown(b: ScoreBreakdown): number {
  const values = Object.values(b);
  return Math.round((values.reduce((a, v) => a + v, 0) / values.length) * 10);
}

/** How far an analyzer's own overall_score may stray from the rule before it is replaced. */
export const OVERALL_TOLERANCE = 10;
