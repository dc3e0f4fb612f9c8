import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { Dispatcher } from "../../src/events/dispatcher.js";
import { createWebhookEndpoint } from "../../src/events/endpoints.js";
import { createApp } from "../../src/http/app.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { silentLogger } from "../../src/logger.js";
import { createCompany } from "../../src/store/companies.js";
import { ManualClock, startReceiver, type Receiver } from "../events/receiver.js";
import { testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

describe("GET /webhooks/events", () => {
  let s: S;
  let r: Receiver;
  let app: ReturnType<typeof createApp>;
  let keyA: string;
  let keyB: string;
  const clock = new ManualClock(Date.now());

  beforeEach(async () => {
    s = await testServices({}, { clock });
    app = createApp(s);
    r = await startReceiver({ answer: (x) => ({ status: x.body.data.external_call_id.endsWith("-bad") ? 500 : 200 }) });
    const a = await createCompany(s.store.db, { name: "A" });
    const b = await createCompany(s.store.db, { name: "B" });
    keyA = (await createApiKey(s.store.db, { companyId: a.id })).key;
    keyB = (await createApiKey(s.store.db, { companyId: b.id })).key;
    await createWebhookEndpoint(s.store.db, { companyId: a.id, url: r.url });
    await createWebhookEndpoint(s.store.db, { companyId: b.id, url: r.url });
    for (const id of ["a-1", "a-2", "a-3-bad"]) await acceptCall(s.store.db, { companyId: a.id, intake: "api", fields: { external_call_id: id } });
    await acceptCall(s.store.db, { companyId: b.id, intake: "api", fields: { external_call_id: "b-1" } });
    const d = new Dispatcher(s.store.db, clock, silentLogger, { timeoutMs: 2_000 });
    await d.drain();
    await d.stop();
  });
  afterEach(async () => {
    await r.close();
    await s.dispose();
  });

  const get = (path: string, key?: string, header: "bearer" | "x-api-key" = "bearer") =>
    app.request(path, { headers: key === undefined ? {} : header === "bearer" ? { Authorization: `Bearer ${key}` } : { "X-Api-Key": key } });

  it.each(["/v1/webhooks/events", "/api/v1/webhooks/events"])("%s lists the caller company's deliveries newest first in the spec 2.5 shape", async (path) => {
    const res = await get(path, keyA);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["data"]);
    expect(body.data).toHaveLength(3);
    expect(body.data.map((x: { id: number }) => x.id)).toEqual([3, 2, 1]);
    for (const item of body.data) {
      expect(Object.keys(item).sort()).toEqual(["attempts", "created_at", "event_type", "id", "response_status", "status"]);
      expect(item.event_type).toBe("call.received");
      expect(item.created_at).toMatch(/Z$/);
      expect(item.attempts).toBe(1);
    }
    expect(body.data.map((x: { status: string }) => x.status)).toEqual(["retrying", "delivered", "delivered"]);
    expect(body.data[0].response_status).toBe(500);
  });

  it("never shows another company's deliveries", async () => {
    const body = await (await get("/v1/webhooks/events", keyB, "x-api-key")).json();
    expect(body.data).toHaveLength(1);
    expect(body.data[0].id).toBe(4);
  });

  it("limits and filters by status", async () => {
    expect((await (await get("/v1/webhooks/events?limit=2", keyA)).json()).data.map((x: { id: number }) => x.id)).toEqual([3, 2]);
    expect((await (await get("/v1/webhooks/events?status=delivered", keyA)).json()).data.map((x: { id: number }) => x.id)).toEqual([2, 1]);
    expect((await (await get("/v1/webhooks/events?status=failed", keyA)).json()).data).toEqual([]);
    expect((await (await get("/v1/webhooks/events?limit=1&status=retrying", keyA)).json()).data.map((x: { id: number }) => x.id)).toEqual([3]);
    // Unknown query parameters are ignored, as on GET /calls.
    expect((await (await get("/v1/webhooks/events?limit=2&cb=123", keyA)).json()).data.map((x: { id: number }) => x.id)).toEqual([3, 2]);
  });

  it.each(["limit=0", "limit=101", "limit=abc", "limit=2.5", "status=done", "status="])("rejects %s with 422 validation_failed", async (q) => {
    const res = await get(`/api/v1/webhooks/events?${q}`, keyA);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error).toBe("validation_failed");
    expect(Object.keys(body.errors)).toEqual([q.split("=")[0]]);
  });

  it("answers 401 without a valid key and 403 without calls:read", async () => {
    for (const key of [undefined, "cc_nope_nope", `${keyA}x`]) {
      const res = await get("/v1/webhooks/events", key);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe("unauthorized");
    }
    const company = (await s.store.db.selectFrom("companies").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
    const writeOnly = (await createApiKey(s.store.db, { companyId: company, scopes: ["calls:write", "reports:read"] })).key;
    const res = await get("/v1/webhooks/events", writeOnly);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("forbidden");
  });

  it("is described in the OpenAPI document", async () => {
    const { OpenAPIHono } = await import("@hono/zod-openapi");
    const { registerV1Routes } = await import("../../src/http/routes/index.js");
    const v1 = new OpenAPIHono();
    registerV1Routes(v1 as never);
    const doc = v1.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    const op = doc.paths!["/webhooks/events"]!.get!;
    expect(op.parameters!.map((p) => (p as { name: string }).name).sort()).toEqual(["limit", "status"]);
    expect(doc.components!.schemas!.WebhookDelivery).toBeDefined();
  });
});
