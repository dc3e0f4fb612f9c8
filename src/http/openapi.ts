import type { OpenAPIHono } from "@hono/zod-openapi";
import { VERSION } from "../version.js";
import type { AppEnv } from "./env.js";

type Doc = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;

/** Security schemes of spec 5: both forms of presenting the API key. */
export function registerSecuritySchemes(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "`Authorization: Bearer cc_<public_id>_<secret>`",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKeyHeader", {
    type: "apiKey",
    in: "header",
    name: "X-Api-Key",
    description: "`X-Api-Key: cc_<public_id>_<secret>`",
  });
}

const DESCRIPTION = [
  "Self-hosted call review: submit sales calls, poll their processing, fetch scored reports.",
  "Every endpoint is served under both /api/v1 and /v1; paths in response bodies use the /api/v1 form. The inbound webhook lives at the root.",
  "Errors are `{error, message}` (+ `errors` for validation). Codes: invalid_json 400, unauthorized 401, forbidden 403, not_found 404, report_not_ready 409, conflict 409, payload_too_large 413, unsupported_media_type 415, validation_failed / no_file / invalid_file / empty_payload 422, rate_limited 429, internal_error 500.",
  "Every response carries X-Request-Id; authenticated responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.",
].join("\n\n");

/**
 * The OpenAPI 3.1 document, generated from the route schemas of the v1 app
 * (whatever route modules are registered) plus the root-level inbound routes,
 * which get a path-level server so their URL stays unversioned.
 */
export function buildOpenApiDocument(v1: OpenAPIHono<AppEnv>, root: OpenAPIHono<AppEnv>): Doc {
  const info = { title: "callreview API", version: VERSION, description: DESCRIPTION };
  const doc = v1.getOpenAPI31Document({ openapi: "3.1.0", info, servers: [{ url: "/api/v1" }, { url: "/v1" }] });
  const rootDoc = root.getOpenAPI31Document({ openapi: "3.1.0", info });
  doc.paths ??= {};
  for (const [p, item] of Object.entries(rootDoc.paths ?? {})) doc.paths[p] = { ...item, servers: [{ url: "/" }] };
  const schemas = { ...(rootDoc.components?.schemas ?? {}), ...(doc.components?.schemas ?? {}) };
  doc.components = { ...doc.components, schemas };
  doc.tags = [
    { name: "Calls", description: "Submit calls and follow their processing." },
    { name: "Reports", description: "The scored analysis of a call." },
    { name: "Webhooks", description: "Outbound webhook deliveries of the key's company." },
    { name: "Inbound webhook", description: "Calls pushed by other systems, with flexible field names." },
  ];
  return doc;
}
