import { Validator } from "@seriousme/openapi-schema-validator";
import { afterEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { createApp } from "../../src/http/app.js";
import { createLogger } from "../../src/logger.js";
import { createServices } from "../../src/services.js";
import { createCompany } from "../../src/store/companies.js";
import { BASES, apiHarness, type ApiHarness } from "../helpers/api.js";
import { tempDir, testConfig } from "../helpers/services.js";

describe("OpenAPI document, /docs and error handling", () => {
  let h: ApiHarness;
  afterEach(() => h?.dispose());

  it.each(BASES)("%s/openapi.json is a valid OpenAPI 3.1 document covering every endpoint", async (base) => {
    h = await apiHarness();
    const r = await h.request(`${base}/openapi.json`, { key: null });
    expect(r.status).toBe(200);
    const doc = await r.json();
    expect(doc.openapi).toBe("3.1.0");
    const res = await new Validator().validate(doc);
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);

    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => m !== "servers" && m !== "parameters")
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    for (const op of [
      "POST /calls",
      "GET /calls",
      "GET /calls/{id}",
      "GET /calls/{id}/report",
      "POST /calls/{id}/reprocess",
      "POST /calls/{id}/audio",
      "POST /uploads",
      "POST /webhooks/inbound/generic",
    ]) {
      expect(ops).toContain(op);
    }
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual(["/api/v1", "/v1"]);
    expect(doc.paths["/webhooks/inbound/generic"].servers).toEqual([{ url: "/" }]);
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
      apiKeyHeader: expect.objectContaining({ type: "apiKey", in: "header", name: "X-Api-Key" }),
    });
    for (const name of ["Call", "CallAccepted", "CallSubmission", "Error", "ValidationError", "Report", "ReportNotReady", "CallList"]) {
      expect(Object.keys(doc.components.schemas)).toContain(name);
    }
    // The Report response is the strict Report schema.
    expect(doc.components.schemas.Report.additionalProperties).toBe(false);
    expect(doc.components.schemas.Report.required).toEqual(expect.arrayContaining(["overall_score", "score_breakdown", "timeline", "confidence_level"]));
    expect(doc.components.schemas.CallSubmission.additionalProperties).toBe(false);

    const create = doc.paths["/calls"].post;
    expect(create.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    expect(Object.keys(create.responses).sort()).toEqual(["200", "201", "400", "401", "403", "413", "415", "422", "429", "500"]);
    expect(Object.keys(doc.paths["/calls/{id}/report"].get.responses)).toEqual(expect.arrayContaining(["200", "404", "409"]));
    expect(doc.paths["/uploads"].post.requestBody.content["multipart/form-data"].schema.required).toEqual(["file"]);
    const listParams = doc.paths["/calls"].get.parameters.map((p: { name: string }) => p.name);
    expect(listParams).toEqual(expect.arrayContaining(["limit", "starting_after"]));
    expect(doc.paths["/calls/{id}"].get.parameters[0]).toMatchObject({ name: "id", in: "path", required: true });
  });

  it("includes route modules registered on the v1 app after the built-in ones", async () => {
    h = await apiHarness();
    const { z, createRoute } = await import("@hono/zod-openapi");
    const { registerV1Routes } = await import("../../src/http/routes/index.js");
    const { buildOpenApiDocument } = await import("../../src/http/openapi.js");
    const { OpenAPIHono } = await import("@hono/zod-openapi");
    const v1 = new OpenAPIHono<any>();
    registerV1Routes(v1);
    v1.openapi(
      createRoute({
        method: "get",
        path: "/extra",
        responses: { 200: { description: "x", content: { "application/json": { schema: z.object({ ok: z.boolean() }) } } } },
      }),
      (c) => c.json({ ok: true }),
    );
    const doc = buildOpenApiDocument(v1, new OpenAPIHono<any>());
    expect(Object.keys(doc.paths ?? {})).toEqual(expect.arrayContaining(["/calls", "/extra"]));
  });

  it("/docs is a self-contained HTML page listing every endpoint, schema and error code", async () => {
    h = await apiHarness();
    const r = await h.request("/docs", { key: null });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/text\/html/);
    const html = await r.text();
    for (const s of [
      "/api/v1/calls/{id}/report",
      "/api/v1/uploads",
      "/webhooks/inbound/generic",
      "CallSubmission",
      "report_not_ready",
      "rate_limited",
      "X-Api-Key",
      "confidence_level",
      "agent_email",
    ]) {
      expect(html).toContain(s);
    }
    // Air-gapped: nothing loaded from elsewhere.
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\/(?!.*example)/i);
  });

  it("an unexpected exception is 500 internal_error without internals, logged with the request id", async () => {
    const { dir, cleanup } = tempDir();
    const lines: string[] = [];
    const services = await createServices(testConfig(dir), { logger: createLogger("error", (l) => lines.push(l)) });
    const company = await createCompany(services.store.db, { name: "A" });
    const { key } = await createApiKey(services.store.db, { companyId: company.id });
    const app = createApp(services);
    await services.store.close();
    try {
      const r = await app.request("/v1/calls", { headers: { authorization: `Bearer ${key}` } });
      expect(r.status).toBe(500);
      const body = await r.json();
      expect(Object.keys(body).sort()).toEqual(["error", "message"]);
      expect(body.error).toBe("internal_error");
      expect(body.message).not.toMatch(/sqlite|database|\.ts:|stack|TypeError|closed|connection/i);
      const rid = r.headers.get("x-request-id");
      expect(rid).toBeTruthy();
      expect(body.message).toContain(rid!);
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "unhandled error");
      expect(logged).toMatchObject({ level: "error", request_id: rid, path: "/v1/calls" });
      expect(JSON.stringify(lines)).not.toContain(key.split("_")[2]);
    } finally {
      cleanup();
    }
  });

  it("every response carries X-Request-Id, errors included", async () => {
    h = await apiHarness();
    for (const r of [await h.request("/v1/calls"), await h.request("/v1/calls", { key: null }), await h.request("/nope"), await h.request("/healthz")]) {
      expect(r.headers.get("x-request-id")).toMatch(/.+/);
    }
  });
});
