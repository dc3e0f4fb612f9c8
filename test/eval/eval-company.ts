import type { Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";

/** The company and call every evaluated transcript is analysed as: default settings, so no company rule changes a figure. */
export const EVAL_COMPANY: Company = {
  id: 1,
  name: "Eval",
  low_score_threshold: 60,
  settings: {},
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

export function evalCall(id: number): CallRow {
  return { id, company_id: 1, metadata: "{}" } as unknown as CallRow;
}
