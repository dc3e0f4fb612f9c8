import { z } from "zod";
import { ReportSchema } from "./schema.js";

let cached: Record<string, unknown> | undefined;

export function reportJsonSchema(): Record<string, unknown> {
  cached ??= z.toJSONSchema(ReportSchema, { target: "draft-2020-12" }) as Record<string, unknown>;
  return cached;
}
