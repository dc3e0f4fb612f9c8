import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { callPath, toCallResource } from "../../calls/resource.js";
import { acceptCall } from "../../intake/accept-call.js";
import { guard } from "../auth.js";
import type { AppEnv } from "../env.js";
import { jsonObjectBody } from "../json-body.js";
import { CallSubmissionSchema } from "../schemas/call-submission.js";
import { AUTH_ERRORS, CallAcceptedSchema, JSON_BODY_ERRORS, SECURITY, ValidationErrorSchema, jsonContent, withRateHeaders } from "../schemas/common.js";
import { CALL_ACCEPTED_EXAMPLE, CALL_DUPLICATE_EXAMPLE, CALL_SUBMISSION_EXAMPLE, validationExample } from "../schemas/examples.js";

export const createCallRoute = createRoute({
  method: "post",
  path: "/calls",
  tags: ["Calls"],
  summary: "Create a call",
  description:
    "Submits a call by reference (recording_url plus metadata). Idempotent on external_call_id per company: a repeat returns the existing call with status `duplicate` (200) and creates nothing, also under concurrent retries. The body is not compared with the first submission. Scope: calls:write.",
  security: SECURITY,
  middleware: [...guard("calls:write"), jsonObjectBody],
  request: { body: { required: true, content: { "application/json": { schema: CallSubmissionSchema, example: CALL_SUBMISSION_EXAMPLE } } } },
  responses: {
    201: withRateHeaders(jsonContent(CallAcceptedSchema, "New call accepted (`status: received`); processing runs asynchronously.", CALL_ACCEPTED_EXAMPLE)),
    200: withRateHeaders(jsonContent(CallAcceptedSchema, "external_call_id already known for this company (`status: duplicate`).", CALL_DUPLICATE_EXAMPLE)),
    ...JSON_BODY_ERRORS,
    ...AUTH_ERRORS,
    422: jsonContent(
      ValidationErrorSchema,
      "Invalid fields, unknown fields, or a body that is not a JSON object (`validation_failed`).",
      validationExample({ recording_url: ["must be an http(s) URL"], rep_email: ["must be an email address"] }),
    ),
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(createCallRoute, async (c) => {
    const s = c.get("services");
    const fields = c.req.valid("json");
    const { call, duplicate } = await acceptCall(s.store.db, { companyId: c.get("apiKey").company_id, fields, intake: "api" }, s.clock.now());
    const body = {
      call_id: call.id,
      status: duplicate ? ("duplicate" as const) : ("received" as const),
      processing_status_url: callPath(call.id),
      report_url: toCallResource(call).report_url,
    };
    return duplicate ? c.json(body, 200) : c.json(body, 201);
  });
}
