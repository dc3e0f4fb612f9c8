import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { toCallResource } from "../../calls/resource.js";
import { AppError } from "../../errors.js";
import { getCompanyCall } from "../../store/calls.js";
import { guard } from "../auth.js";
import { parseCallId } from "../call-id.js";
import type { AppEnv } from "../env.js";
import { AUTH_ERRORS, CallIdParams, CallSchema, NOT_FOUND, SECURITY, jsonContent, withRateHeaders } from "../schemas/common.js";
import { CALL_EXAMPLE } from "../schemas/examples.js";

export const getCallRoute = createRoute({
  method: "get",
  path: "/calls/{id}",
  tags: ["Calls"],
  summary: "Retrieve a call",
  description: "Poll this to learn when the report is ready (report_status `ready`, report_url set). Scope: calls:read.",
  security: SECURITY,
  middleware: guard("calls:read"),
  request: { params: CallIdParams },
  responses: {
    200: withRateHeaders(jsonContent(CallSchema, "The call.", CALL_EXAMPLE)),
    ...NOT_FOUND,
    ...AUTH_ERRORS,
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(getCallRoute, async (c) => {
    const id = parseCallId(c.req.param("id"));
    const call = await getCompanyCall(c.get("services").store.db, c.get("apiKey").company_id, id);
    if (!call) throw new AppError("not_found", `call ${id} not found`);
    return c.json(toCallResource(call), 200);
  });
}
