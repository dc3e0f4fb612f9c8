import type { z } from "zod";
import { AppError, type FieldErrors } from "../errors.js";

/** Zod issues -> `errors: {field: [messages]}`, every bad field at once. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.join(".") : "body";
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
