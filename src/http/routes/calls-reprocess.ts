import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { reprocessCall } from "../../intake/reprocess.js";
import { guard } from "../auth.js";
import { parseCallId } from "../call-id.js";
import type { AppEnv } from "../env.js";
import { AUTH_ERRORS, CallIdParams, NOT_FOUND, SECURITY, jsonContent, withRateHeaders } from "../schemas/common.js";
import { REPROCESSING_EXAMPLE } from "../schemas/examples.js";

const ReprocessSchema = z.object({ call_id: z.number().int(), status: z.literal("reprocessing") }).openapi("Reprocessing");

export const reprocessRoute = createRoute({
  method: "post",
  path: "/calls/{id}/reprocess",
  tags: ["Calls"],
  summary: "Reprocess a call",
  description:
    "Re-queues a complete or failed call: processing_status -> queued, report_status -> pending, report_url -> null; the recording is fetched again. Earlier reports are kept as history. A call already queued or being processed is left as it is (still 200). No request body. Scope: calls:write.",
  security: SECURITY,
  middleware: guard("calls:write"),
  request: { params: CallIdParams },
  responses: {
    200: withRateHeaders(jsonContent(ReprocessSchema, "Accepted for reprocessing.", REPROCESSING_EXAMPLE)),
    ...NOT_FOUND,
    ...AUTH_ERRORS,
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(reprocessRoute, async (c) => {
    const id = parseCallId(c.req.param("id"));
    const s = c.get("services");
    await reprocessCall(s.store.db, { companyId: c.get("apiKey").company_id, callId: id }, s.clock.now());
    return c.json({ call_id: id, status: "reprocessing" as const }, 200);
  });
}
