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

const Query = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25).openapi({ description: "1 to 100, default 25" }),
  status: z.enum(DELIVERY_STATUSES).optional(),
});

const route = createRoute({
  method: "get",
  path: "/webhooks/events",
  summary: "Recent outbound webhook deliveries of the caller's company, newest first",
  middleware: guard("calls:read"),
  request: { query: Query },
  responses: {
    200: { description: "Deliveries", content: { "application/json": { schema: z.object({ data: z.array(WebhookDelivery) }) } } },
    401: { description: "Missing or invalid API key", content: { "application/json": { schema: ErrorBody } } },
    403: { description: "Key lacks calls:read", content: { "application/json": { schema: ErrorBody } } },
    422: { description: "Invalid limit or status", content: { "application/json": { schema: ErrorBody } } },
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(route, async (c) => {
    const { limit, status } = c.req.valid("query");
    const key = c.get("apiKey");
    const rows = await listDeliveries(c.get("services").store.db, { companyId: key.company_id, status, limit });
    return c.json({ data: rows.map(toDeliveryResource) as z.infer<typeof WebhookDelivery>[] }, 200);
  });
}
