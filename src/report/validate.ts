import { AppError } from "../errors.js";
import { REPORT_KEYS, ReportSchema, type Report } from "./schema.js";

/**
 * Every report passes through here before it is stored. Returns the report
 * with keys in spec order, so the same content always serialises to the same bytes.
 */
export function validateReport(candidate: unknown): Report {
  const parsed = ReportSchema.safeParse(candidate);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new AppError("internal_error", `report failed schema validation: ${issues.join("; ")}`);
  }
  const ordered: Record<string, unknown> = {};
  for (const k of REPORT_KEYS) if (parsed.data[k] !== undefined) ordered[k] = parsed.data[k];
  return ordered as Report;
}

/** The Report JSON Schema (draft 2020-12), handed to LLMs to constrain their output and published in the OpenAPI document. */
export { reportJsonSchema } from "./json-schema.js";
