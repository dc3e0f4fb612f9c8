import type { z } from "zod";
import { AppError, type FieldErrors } from "../errors.js";

/** Zod issues -> `errors: {field: [messages]}`, every bad field at once. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const prefix = issue.path.map(String);
    // An unknown key is a problem of that key, not of the whole body: name it.
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) (out[[...prefix, key].join(".")] ??= []).push("unknown field");
      continue;
    }
    const field = prefix.length > 0 ? prefix.join(".") : "body";
    (out[field] ??= []).push(issue.message);
  }
  return out;
}

export function validationError(error: z.ZodError, message = "request validation failed"): AppError {
  return new AppError("validation_failed", message, { errors: fieldErrors(error) });
}

/** OpenAPIHono's defaultHook: every schema failure leaves with the same 422 shape. */
export function validationHook(result: { success: boolean; error?: unknown }): void {
  if (!result.success) throw validationError(result.error as z.ZodError);
}
