import { isHighValue } from "../calls/high-value.js";
import type { Report } from "./schema.js";

/**
 * DESIGN "priority": high-value calls, compliance alerts and low scores always
 * ask for a manager. `analyzerAsked` keeps a review the analyzer itself asked for.
 */
export function reviewRequired(
  report: Pick<Report, "compliance_alerts" | "overall_score">,
  call: { metadata: string },
  lowScoreThreshold: number,
  analyzerAsked = false,
): boolean {
  return analyzerAsked || isHighValue(call.metadata) || report.compliance_alerts.length > 0 || report.overall_score < lowScoreThreshold;
}
