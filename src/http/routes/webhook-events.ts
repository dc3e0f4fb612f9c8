import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { toDeliveryResource } from "../../events/deliveries.js";
import { EVENT_TYPES } from "../../events/types.js";
import { DELIVERY_STATUSES, listDeliveries } from "../../store/webhook-deliveries.js";
import { guard } from "../auth.js";
import type { AppEnv } from "../env.js";
import { AUTH_ERRORS, SECURITY, ValidationErrorSchema, jsonContent, withRateHeaders } from "../schemas/common.js";
import { WEBHOOK_DELIVERY_LIST_EXAMPLE, validationExample } from "../schemas/examples.js";

const WebhookDeliverySchema = z
  .object({
    id: z.number().int(),
    event_type: z.enum(EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES).openapi({
      description:
        "pending: not tried yet (or replayed); retrying: failed, next attempt scheduled; delivered: the receiver answered 2xx; failed: retries spent, the receiver answered 410, or the endpoint was removed.",
    }),
    response_status: z.number().int().nullable().openapi({ description: "HTTP status of the latest attempt; null when no answer arrived (yet)." }),
    attempts: z.number().int().openapi({ description: "Attempts made so far, replays included." }),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("WebhookDelivery");

const LIMIT_MESSAGE = "must be an integer from 1 to 100";

// Like GET /calls: `limit` 1..100 (default 25); unknown query parameters are ignored.
const Query = z.object({
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

export const webhookEventsRoute = createRoute({
  method: "get",
  path: "/webhooks/events",
  tags: ["Webhooks"],
  summary: "Recent outbound webhook deliveries",
  description: "The company's most recent webhook deliveries (one per event and registered endpoint), newest first. Scope: calls:read.",
  security: SECURITY,
  middleware: guard("calls:read"),
  request: { query: Query },
  responses: {
    200: withRateHeaders(
      jsonContent(
        z.object({ data: z.array(WebhookDeliverySchema).openapi({ description: "Newest first." }) }).openapi("WebhookDeliveryList"),
        "Recent deliveries.",
        WEBHOOK_DELIVERY_LIST_EXAMPLE,
      ),
    ),
    ...AUTH_ERRORS,
    422: jsonContent(
      ValidationErrorSchema,
      "Bad `limit` or `status` (`validation_failed`).",
      validationExample({ status: ["must be one of pending, delivered, retrying, failed"] }),
    ),
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(webhookEventsRoute, async (c) => {
    const { limit = 25, status } = c.req.valid("query");
    const rows = await listDeliveries(c.get("services").store.db, { companyId: c.get("apiKey").company_id, status, limit });
    return c.json({ data: rows.map(toDeliveryResource) as z.infer<typeof WebhookDeliverySchema>[] }, 200);
  });
}
