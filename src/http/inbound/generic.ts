import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { AppError } from "../../errors.js";
import { acceptCall } from "../../intake/accept-call.js";
import { INBOUND_KEYS, mapInboundPayload } from "../../intake/inbound-mapping.js";
import { guard } from "../auth.js";
import type { AppEnv } from "../env.js";
import { isPlainObject, parseJson, readBodyText } from "../json-body.js";
import { AUTH_ERRORS, ErrorSchema, SECURITY, ValidationErrorSchema, jsonContent, withRateHeaders } from "../schemas/common.js";
import { INBOUND_ACCEPTED_EXAMPLE, INBOUND_DUPLICATE_EXAMPLE, INBOUND_PAYLOAD_EXAMPLE, errorExample, validationExample } from "../schemas/examples.js";

const InboundAcceptedSchema = z.object({ call_id: z.number().int(), status: z.enum(["received", "duplicate"]) }).openapi("InboundAccepted");

const mappingTable = Object.entries(INBOUND_KEYS)
  .map(([attr, keys]) => `| ${attr} | ${keys.map((k) => `\`${k}\``).join(", ")} |`)
  .join("\n");

export const inboundGenericRoute = createRoute({
  method: "post",
  path: "/webhooks/inbound/generic",
  tags: ["Inbound webhook"],
  summary: "Inbound webhook (generic)",
  description: `Not under the versioned base. Authenticated with the API key (scope calls:write) and counted in the key's rate-limit window. A JSON object; for each attribute the first present key (value not null and not "") wins:\n\n| attribute | keys in priority order |\n|---|---|\n${mappingTable}\n\n\`source_system\` and \`metadata\` are taken as sent. Numeric ids, names and phones become strings; duration may be a number or numeric string (rounded to seconds); started-at may be ISO 8601 or Unix seconds; a bad email, URL, date or duration is 422 validation_failed keyed by the payload key. The whole payload is stored with the call exactly as received. Deduplicated on the mapped external id, shared with POST /calls of the same company. Any Content-Type is accepted; the body must be JSON.`,
  security: SECURITY,
  middleware: guard("calls:write"),
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: { type: "object" as const, additionalProperties: true }, example: INBOUND_PAYLOAD_EXAMPLE } },
    },
  },
  responses: {
    201: withRateHeaders(jsonContent(InboundAcceptedSchema, "New call (`status: received`).", INBOUND_ACCEPTED_EXAMPLE)),
    200: withRateHeaders(jsonContent(InboundAcceptedSchema, "The external id is already known (`status: duplicate`).", INBOUND_DUPLICATE_EXAMPLE)),
    400: jsonContent(ErrorSchema, "Unparseable JSON (`invalid_json`).", errorExample("invalid_json", "request body is not valid JSON")),
    413: jsonContent(ErrorSchema, "Body over 1 MiB (`payload_too_large`).", errorExample("payload_too_large", "JSON bodies are limited to 1 MiB")),
    422: jsonContent(
      z.union([ErrorSchema, ValidationErrorSchema]),
      "`empty_payload` (empty body or `{}`) or `validation_failed` (not an object, or a mapped value of the wrong kind).",
      validationExample({ agent_email: ["must be an email address"] }),
    ),
    ...AUTH_ERRORS,
  },
});

export function registerInbound(root: OpenAPIHono<AppEnv>): void {
  root.openapi(inboundGenericRoute, async (c) => {
    const s = c.get("services");
    const raw = await readBodyText(c);
    if (raw.trim().length === 0) throw new AppError("empty_payload", "the webhook body is empty");
    const payload = parseJson(raw);
    if (!isPlainObject(payload)) {
      throw new AppError("validation_failed", "the webhook body must be a JSON object", { errors: { body: ["must be a JSON object"] } });
    }
    if (Object.keys(payload).length === 0) throw new AppError("empty_payload", "the webhook payload has no fields");
    const mapped = mapInboundPayload(payload);
    if (!mapped.ok) throw new AppError("validation_failed", "webhook payload validation failed", { errors: mapped.errors });
    const { call, duplicate } = await acceptCall(
      s.store.db,
      { companyId: c.get("apiKey").company_id, intake: "inbound_webhook", fields: mapped.fields, rawPayload: raw },
      s.clock.now(),
    );
    const body = { call_id: call.id, status: duplicate ? ("duplicate" as const) : ("received" as const) };
    return duplicate ? c.json(body, 200) : c.json(body, 201);
  });
}
