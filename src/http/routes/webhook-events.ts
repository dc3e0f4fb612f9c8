import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { toDeliveryResource } from "../../events/deliveries.js";
import { EVENT_TYPES } from "../../events/types.js";
import { DELIVERY_STATUSES, listDeliveries } from "../../store/webhook-deliveries.js";
import { guard } from "../auth.js";
import type { AppEnv } from "../env.js";

const ErrorBody = z.object({ error: z.string(), message: z.string().optional() });

const WebhookDelivery = z
  .object({
    id: z.number().int(),
    event_type: z.enum(EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES).openapi({ description: "pending: not tried yet (or replayed); retrying: failed, next attempt scheduled; delivered: a 2xx was received; failed: retries spent or the receiver answered 410" }),
    response_status: z.number().int().nullable().openapi({ description: "HTTP status of the latest attempt; null when no answer arrived" }),
    attempts: z.number().int(),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("WebhookDelivery");

const LIMIT_MESSAGE = "must be an integer from 1 to 100";

/** Like GET /calls: `limit` 1..100 (default 25); an unknown query parameter is a validation error too. */
const Query = z.strictObject({
  limit: z.coerce
    .number(LIMIT_MESSAGE)
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(100, LIMIT_MESSAGE)
    .optional()
    .openapi({ param: { name: "limit", in: "query" }, description: "Page size, 1 to 100 (default 25).", example: 25 }),
  status: z
    .enum(DELIVERY_STATUSES, `must be one of ${DELIVERY_STATUSES.join(", ")}`)
    .optional()
    .openapi({ param: { name: "status", in: "query" }, description: "Only deliveries in this status." }),
});

const route = createRoute({
  method: "get",
  path: "/webhooks/events",
  tags: ["Webhooks"],
  summary: "Recent outbound webhook deliveries",
  description: "The company's most recent webhook deliveries (one per event and registered endpoint), newest first. Scope: calls:read.",
  middleware: guard("calls:read"),
  request: { query: Query },
  responses: {
    200: { description: "Deliveries", content: { "application/json": { schema: z.object({ data: z.array(WebhookDelivery) }) } } },
    401: { description: "Missing or invalid API key", content: { "application/json": { schema: ErrorBody } } },
    403: { description: "Key lacks calls:read", content: { "application/json": { schema: ErrorBody } } },
    422: { description: "Bad `limit` or `status`, or an unknown query parameter (`validation_failed`).", content: { "application/json": { schema: ErrorBody } } },
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(route, async (c) => {
    const { limit = 25, status } = c.req.valid("query");
    const key = c.get("apiKey");
    const rows = await listDeliveries(c.get("services").store.db, { companyId: key.company_id, status, limit });
    return c.json({ data: rows.map(toDeliveryResource) as z.infer<typeof WebhookDelivery>[] }, 200);
  });
}
