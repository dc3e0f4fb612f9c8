import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { callPath } from "../../calls/resource.js";
import { AppError } from "../../errors.js";
import { acceptCall } from "../../intake/accept-call.js";
import { guard } from "../auth.js";
import type { AppEnv } from "../env.js";
import { withAudioUpload } from "../multipart.js";
import { AUTH_ERRORS, MULTIPART_400, MULTIPART_415, ErrorSchema, SECURITY, ValidationErrorSchema, jsonContent, withRateHeaders } from "../schemas/common.js";
import { UPLOAD_FORM_SCHEMA, UploadFieldsSchema } from "../schemas/upload.js";
import { validationError } from "../validation.js";
import { UPLOAD_ACCEPTED_EXAMPLE, UPLOAD_FORM_EXAMPLE, errorExample } from "../schemas/examples.js";

const UploadAcceptedSchema = z
  .object({ call_id: z.number().int(), status: z.literal("received"), processing_status_url: z.string().openapi({ example: "/api/v1/calls/42" }) })
  .openapi("UploadAccepted");

export const uploadRoute = createRoute({
  method: "post",
  path: "/uploads",
  tags: ["Calls"],
  summary: "Upload audio to create a call",
  description:
    "multipart/form-data, streamed to disk. The `file` part is required; its type is recognised from its content and its size is capped by the server's --max-upload-mb (default 200 MiB). Optional text parts: rep_name, customer_name, duration_seconds; other parts are refused. Scope: calls:write.",
  security: SECURITY,
  middleware: guard("calls:write"),
  request: { body: { required: true, content: { "multipart/form-data": { schema: UPLOAD_FORM_SCHEMA, example: UPLOAD_FORM_EXAMPLE } } } },
  responses: {
    201: withRateHeaders(jsonContent(UploadAcceptedSchema, "Call created from the upload (`status: received`).", UPLOAD_ACCEPTED_EXAMPLE)),
    ...MULTIPART_400,
    ...MULTIPART_415,
    422: jsonContent(
      z.union([ErrorSchema, ValidationErrorSchema]),
      "`no_file` (no `file` part), `invalid_file` (not a supported audio type, too large, empty, malformed multipart or a storage failure; the message says which) or `validation_failed` (bad text parts).",
      errorExample("no_file", "the request has no `file` part"),
    ),
    ...AUTH_ERRORS,
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(uploadRoute, async (c) => {
    const s = c.get("services");
    return withAudioUpload(c, s, async (upload) => {
      const parsed = UploadFieldsSchema.safeParse(upload.fields);
      if (!parsed.success) throw validationError(parsed.error);
      if (upload.truncated.length > 0) {
        throw new AppError("validation_failed", "request validation failed", { errors: Object.fromEntries(upload.truncated.map((n) => [n, ["is too long"]])) });
      }
      const { call } = await acceptCall(
        s.store.db,
        {
          companyId: c.get("apiKey").company_id,
          intake: "upload",
          fields: parsed.data,
          audio: { sha256: upload.audio.sha256, format: upload.audio.format, bytes: upload.audio.bytes },
        },
        s.clock.now(),
      );
      return c.json({ call_id: call.id, status: "received" as const, processing_status_url: callPath(call.id) }, 201);
    });
  });
}
