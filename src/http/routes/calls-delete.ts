import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { eraseCall } from "../../lifecycle/erase-call.js";
import { guard } from "../auth.js";
import { parseCallId } from "../call-id.js";
import type { AppEnv } from "../env.js";
import { AUTH_ERRORS, CallIdParams, NOT_FOUND, SECURITY, jsonContent } from "../schemas/common.js";
import { errorExample } from "../schemas/examples.js";

const ConflictSchema = z
  .object({ error: z.literal("conflict"), message: z.string(), status: z.string().openapi({ description: "The call's processing_status." }) })
  .openapi("CallBusy");

export const deleteCallRoute = createRoute({
  method: "delete",
  path: "/calls/{id}",
  tags: ["Calls"],
  summary: "Erase a call",
  description:
    "Erases the call for good: its audio (unless another call has the same bytes), transcript, every report version, state history, jobs and unsent webhook deliveries; payloads already delivered are replaced by a tombstone. Emits `call.deleted` (ids only). Afterwards the call is 404 and its external_call_id can be submitted again. A call a worker is processing right now answers 409 `conflict` with its `status`: retry once it is complete or failed. Scope: calls:delete (not granted by default).",
  security: SECURITY,
  middleware: guard("calls:delete"),
  request: { params: CallIdParams },
  responses: {
    204: { description: "Erased." },
    409: jsonContent(ConflictSchema, "A worker is processing the call right now (`conflict`, with `status`).", {
      ...errorExample("conflict", "call 42 is being processed right now (analyzing); delete it once it is complete or failed"),
      status: "analyzing",
    }),
    ...NOT_FOUND,
    ...AUTH_ERRORS,
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(deleteCallRoute, async (c) => {
    const id = parseCallId(c.req.param("id"));
    const key = c.get("apiKey");
    await eraseCall(c.get("services"), { callId: id, companyId: key.company_id, actor: { type: "api_key", id: key.public_id, requestId: c.get("requestId") } });
    return c.body(null, 204);
  });
}
