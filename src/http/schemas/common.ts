import { z } from "@hono/zod-openapi";
import { ReportSchema } from "../../report/schema.js";
import { errorExample } from "./examples.js";

/** Schemas shared by several v1 routes; each is named so the OpenAPI document refers to it once. */

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ description: "Machine-readable code; clients branch on it.", example: "not_found" }),
    message: z.string().openapi({ description: "Human-readable text; may be reworded." }),
  })
  .openapi("Error");

export const ValidationErrorSchema = z
  .object({
    error: z.literal("validation_failed"),
    message: z.string(),
    errors: z
      .record(z.string(), z.array(z.string()))
      .openapi({ description: "Field name -> every problem with it.", example: { recording_url: ["must be an http(s) URL"] } }),
  })
  .openapi("ValidationError");

export const ReportNotReadySchema = z
  .object({
    error: z.literal("report_not_ready"),
    message: z.string(),
    status: z.string().openapi({ description: "The call's current processing_status.", example: "transcribing" }),
  })
  .openapi("ReportNotReady");

export const CallSchema = z
  .object({
    call_id: z.number().int(),
    external_call_id: z.string().nullable(),
    customer_name: z.string().nullable(),
    processing_status: z.string().openapi({ description: "queued | transcribing | analyzing | complete | failed", example: "queued" }),
    report_status: z.string().openapi({ description: "pending | ready", example: "pending" }),
    overall_score: z.number().int().min(0).max(100).nullable(),
    outcome: z.string().nullable(),
    failure_reason: z.string().nullable().openapi({ description: "Why processing failed (e.g. no_audio, download_failed); null otherwise." }),
    failure_detail: z.string().nullable().optional().openapi({
      description:
        "A short detail next to failure_reason, e.g. `HTTP 404`, `timed out`, `blocked by download policy`, `too large`, `not audio`; null when there is none.",
      example: "HTTP 404",
    }),
    created_at: z.string().openapi({ format: "date-time" }),
    report_url: z.string().nullable().openapi({ description: "`/api/v1/calls/<call_id>/report` once report_status is ready, else null." }),
  })
  .openapi("Call");

export const CallAcceptedSchema = z
  .object({
    call_id: z.number().int(),
    status: z.enum(["received", "duplicate"]),
    processing_status_url: z.string().openapi({ example: "/api/v1/calls/42" }),
    report_url: z.string().nullable().optional().openapi({ description: "Null at creation; absent in the upload response." }),
  })
  .openapi("CallAccepted");

/**
 * The strict Report of src/report/schema.ts, rebuilt from its shape with the
 * OpenAPI-aware z: that module may load before the extension, and zod 4 gives
 * each schema its methods when it is created.
 */
export const ReportResourceSchema = z
  .strictObject(ReportSchema.shape)
  .openapi("Report", { description: "The scored analysis of a call (spec 2.4). No other top-level keys." });

/** Path id: documented as a positive integer; anything else answers 404 not_found (see parseCallId). */
export const CallIdParams = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path", required: true },
    description: "The call_id (a positive integer).",
    example: "42",
    pattern: "^[1-9][0-9]{0,15}$",
  }),
});

export const SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }];

/** A JSON response with its example (every response has one: test/http/openapi-examples.test.ts). */
const json = <T extends z.ZodType>(schema: T, description: string, example: unknown) => ({ description, content: { "application/json": { schema, example } } });

const rateHeaders = {
  "X-RateLimit-Limit": { description: "Requests allowed per window for this key.", schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) at which the window resets.", schema: { type: "integer" as const } },
};

export function withRateHeaders<T extends { description: string; content?: unknown }>(r: T) {
  return { ...r, headers: rateHeaders };
}

/** A multipart text part that is not UTF-8, or an upload cut off by the client. */
export const MULTIPART_400 = {
  400: json(
    ErrorSchema,
    "A text part that is not valid UTF-8 (`invalid_json`), or an upload cut off by the client (`bad_request`).",
    errorExample("invalid_json", 'form field "rep_name" is not valid UTF-8'),
  ),
};

/** A body that is not multipart/form-data, on the upload routes. */
export const MULTIPART_415 = {
  415: json(
    ErrorSchema,
    "Not multipart/form-data (`unsupported_media_type`).",
    errorExample("unsupported_media_type", "send the upload as multipart/form-data with a `file` part"),
  ),
};

/** Error answers every authenticated route can give. */
export const AUTH_ERRORS = {
  401: json(
    ErrorSchema,
    "Missing, malformed, unknown, expired or revoked API key (`unauthorized`).",
    errorExample("unauthorized", "missing or invalid API key"),
  ),
  403: json(ErrorSchema, "The key lacks the scope this endpoint needs (`forbidden`).", errorExample("forbidden", "this API key lacks the calls:write scope")),
  429: {
    ...json(
      ErrorSchema,
      "Rate limit exceeded (`rate_limited`); retry after Retry-After seconds.",
      errorExample("rate_limited", "rate limit of 120 requests per window exceeded; retry after 17 s"),
    ),
    headers: { ...rateHeaders, "Retry-After": { description: "Seconds until the window resets.", schema: { type: "integer" as const } } },
  },
  500: json(
    ErrorSchema,
    "Unexpected server error (`internal_error`); safe to retry with backoff.",
    errorExample("internal_error", "unexpected server error (request 5f0c2b7e-3c1a-4c55-9d51-0e8a3f2d7b19); safe to retry with backoff"),
  ),
};

export const NOT_FOUND = {
  404: json(ErrorSchema, "No such call for this company (`not_found`); also for a non-integer id.", errorExample("not_found", "call 42 not found")),
};

export const JSON_BODY_ERRORS = {
  400: json(
    ErrorSchema,
    "Unparseable JSON or invalid UTF-8 (`invalid_json`); a body cut off or a conflicting Content-Length (`bad_request`).",
    errorExample("invalid_json", "request body is not valid JSON"),
  ),
  413: json(ErrorSchema, "JSON body over 1 MiB (`payload_too_large`).", errorExample("payload_too_large", "JSON bodies are limited to 1 MiB")),
  415: json(
    ErrorSchema,
    "Content-Type is not application/json (`unsupported_media_type`).",
    errorExample("unsupported_media_type", "send the body as application/json"),
  ),
};

export { json as jsonContent };
