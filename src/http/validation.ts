import type { z } from "zod";
import { AppError, type FieldErrors } from "../errors.js";

/**
 * Zod issues -> `errors: {field: [messages]}`, every bad field at once. Field
 * names come from the client (`constructor`, `__proto__`), so they are collected
 * in a Map and never looked up on an object with a prototype; a message that
 * several checks repeat for one field (an infinite `limit` fails both `int` and
 * `max`) is listed once.
 */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out = new Map<string, string[]>();
  const add = (field: string, message: string) => {
    const list = out.get(field);
    if (!list) out.set(field, [message]);
    else if (!list.includes(message)) list.push(message);
  };
  for (const issue of error.issues) {
    const prefix = issue.path.map(String);
    // An unknown key is a problem of that key, not of the whole body: name it.
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add([...prefix, key].join("."), "unknown field");
      continue;
    }
    add(prefix.length > 0 ? prefix.join(".") : "body", issue.message);
  }
  // fromEntries defines own properties, so even `__proto__` is a plain key of the answer.
  return Object.fromEntries(out);
}

export function validationError(error: z.ZodError, message = "request validation failed"): AppError {
  return new AppError("validation_failed", message, { errors: fieldErrors(error) });
}

/** OpenAPIHono's defaultHook: every schema failure leaves with the same 422 shape. */
export function validationHook(result: { success: boolean; error?: unknown }): void {
  if (!result.success) throw validationError(result.error as z.ZodError);
}
