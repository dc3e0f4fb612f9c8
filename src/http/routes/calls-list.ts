import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { toCallResource } from "../../calls/resource.js";
import { listCompanyCalls } from "../../store/calls.js";
import { guard } from "../auth.js";
import type { AppEnv } from "../env.js";
import { AUTH_ERRORS, CallSchema, SECURITY, ValidationErrorSchema, jsonContent, withRateHeaders } from "../schemas/common.js";
import { CALL_LIST_EXAMPLE, validationExample } from "../schemas/examples.js";

// Unknown query parameters are ignored (cache busters, tracking tags), unlike unknown body fields.
const ListQuery = z.object({
  limit: z.coerce
    .number("must be an integer from 1 to 100")
    .int("must be an integer from 1 to 100")
    .min(1, "must be an integer from 1 to 100")
    .max(100, "must be an integer from 1 to 100")
    .optional()
    .openapi({ param: { name: "limit", in: "query" }, description: "Page size, 1 to 100 (default 25).", example: 25 }),
  starting_after: z.coerce
    .number("must be a call_id")
    .int("must be a call_id")
    .min(1, "must be a call_id")
    .optional()
    .openapi({
      param: { name: "starting_after", in: "query" },
      description: "A call_id: the page holds calls older than it (pass the last call_id of the previous page).",
    }),
});

const CallListSchema = z
  .object({
    data: z.array(CallSchema).openapi({ description: "Newest first." }),
    count: z.number().int().openapi({ description: "Number of items in `data`." }),
    has_more: z.boolean().openapi({ description: "True when older calls exist beyond this page." }),
    starting_after: z.number().int().nullable().openapi({ description: "Cursor for the next page (the last call_id of `data`), or null when there is none." }),
  })
  .openapi("CallList");

export const listCallsRoute = createRoute({
  method: "get",
  path: "/calls",
  tags: ["Calls"],
  summary: "List calls",
  description: "The company's calls, newest first. Pages backwards in time with `starting_after`. Scope: calls:read.",
  security: SECURITY,
  middleware: guard("calls:read"),
  request: { query: ListQuery },
  responses: {
    200: withRateHeaders(jsonContent(CallListSchema, "A page of calls.", CALL_LIST_EXAMPLE)),
    ...AUTH_ERRORS,
    422: jsonContent(
      ValidationErrorSchema,
      "Bad `limit` or `starting_after` (`validation_failed`).",
      validationExample({ limit: ["must be an integer from 1 to 100"] }),
    ),
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(listCallsRoute, async (c) => {
    const { limit = 25, starting_after } = c.req.valid("query");
    const rows = await listCompanyCalls(c.get("services").store.db, c.get("apiKey").company_id, { limit: limit + 1, startingAfter: starting_after });
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return c.json({ data: page.map(toCallResource), count: page.length, has_more: hasMore, starting_after: hasMore ? page[page.length - 1].id : null }, 200);
  });
}
