import { afterEach, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKeyByPublicId } from "../../src/auth/api-keys.js";
import { BASES, apiHarness, manualClock, type ApiHarness } from "../helpers/api.js";

describe("authentication, scopes and rate limiting", () => {
  let h: ApiHarness;
  afterEach(() => h.dispose());

  it("401 unauthorized, with one identical answer, for every kind of bad key", async () => {
    const clock = manualClock("2030-01-01T00:00:00Z");
    h = await apiHarness({}, { clock });
    const expired = await createApiKey(h.s.store.db, { companyId: h.company.id, expiresAt: "2029-12-31T00:00:00.000Z" });
    const revoked = await createApiKey(h.s.store.db, { companyId: h.company.id });
    await revokeApiKeyByPublicId(h.s.store.db, revoked.public_id);
    const [, pub] = h.key.split("_");
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      malformed: { authorization: "Bearer nope" },
      "wrong scheme": { authorization: `Basic ${h.key}` },
      "empty bearer": { authorization: "Bearer " },
      unknown: { authorization: `Bearer cc_ABCDEFGHIJKL_${"x".repeat(40)}` },
      "wrong secret": { authorization: `Bearer cc_${pub}_${"y".repeat(40)}` },
      expired: { authorization: `Bearer ${expired.key}` },
      revoked: { "x-api-key": revoked.key },
    };
    const bodies = new Set<string>();
    for (const base of BASES) {
      for (const [name, headers] of Object.entries(cases)) {
        const r = await h.request(`${base}/calls`, { headers, key: null });
        expect(r.status, name).toBe(401);
        const b = await r.json();
        expect(b.error, name).toBe("unauthorized");
        expect(r.headers.get("x-ratelimit-limit"), name).toBeNull();
        bodies.add(JSON.stringify(b));
      }
    }
    expect(bodies.size).toBe(1);
    const inbound = await h.postJson("/webhooks/inbound/generic", { id: "x" }, { key: null });
    expect(inbound.status).toBe(401);
    expect((await inbound.json()).error).toBe("unauthorized");
  });

  it("accepts the key as Bearer and as X-Api-Key", async () => {
    h = await apiHarness();
    expect((await h.request("/v1/calls", { key: null, headers: { authorization: `Bearer ${h.key}` } })).status).toBe(200);
    expect((await h.request("/v1/calls", { key: null, headers: { "x-api-key": h.key } })).status).toBe(200);
  });

  it("403 forbidden when the key lacks the endpoint's scope (DESIGN scope table)", async () => {
    h = await apiHarness();
    const { call_id } = await (await h.postJson("/v1/calls", {})).json();
    const readOnly = await h.keyWithScopes(["calls:read"]);
    const writeOnly = await h.keyWithScopes(["calls:write"]);
    const reportsOnly = await h.keyWithScopes(["reports:read"]);
    const cases: Array<[string, string, string, boolean]> = [
      ["POST", "/v1/calls", readOnly, true],
      ["POST", `/v1/calls/${call_id}/reprocess`, readOnly, false],
      ["POST", "/v1/uploads", reportsOnly, false],
      ["POST", `/v1/calls/${call_id}/audio`, readOnly, false],
      ["POST", "/webhooks/inbound/generic", readOnly, true],
      ["GET", "/v1/calls", writeOnly, false],
      ["GET", `/v1/calls/${call_id}`, reportsOnly, false],
      ["GET", `/api/v1/calls/${call_id}/report`, readOnly, false],
    ];
    for (const [method, path, key, json] of cases) {
      const r = await h.request(path, { method, key, headers: json ? { "content-type": "application/json" } : {}, body: json ? "{}" : undefined });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect((await r.json()).error).toBe("forbidden");
    }
    // And the matching scope is enough.
    expect((await h.request(`/v1/calls/${call_id}`, { key: readOnly })).status).toBe(200);
    expect((await h.request(`/v1/calls/${call_id}/report`, { key: reportsOnly })).status).toBe(409);
    expect((await h.postJson("/v1/calls", {}, { key: writeOnly })).status).toBe(201);
  });

  it("rate limit: exactly `limit` requests pass in a window, headers count down, the next is 429 with Retry-After; the window resets", async () => {
    const clock = manualClock("2030-01-01T00:00:10.000Z");
    h = await apiHarness({ rateLimit: 120, rateLimitWindowSeconds: 60 }, { clock });
    const windowEnd = Date.parse("2030-01-01T00:01:00.000Z") / 1000;
    for (let i = 1; i <= 120; i++) {
      const r = await h.request(i % 2 ? "/v1/calls" : "/api/v1/calls");
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-limit")).toBe("120");
      expect(r.headers.get("x-ratelimit-remaining")).toBe(String(120 - i));
      expect(r.headers.get("x-ratelimit-reset")).toBe(String(windowEnd));
    }
    const over = await h.request("/v1/calls");
    expect(over.status).toBe(429);
    expect((await over.json()).error).toBe("rate_limited");
    expect(over.headers.get("retry-after")).toBe("50");
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");

    clock.advance(49_500);
    const stillOver = await h.request("/v1/calls");
    expect(stillOver.status).toBe(429);
    expect(stillOver.headers.get("retry-after")).toBe("1");

    clock.advance(500);
    const fresh = await h.request("/v1/calls");
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-ratelimit-remaining")).toBe("119");
    expect(fresh.headers.get("x-ratelimit-reset")).toBe(String(windowEnd + 60));
  });

  it("rate limit is per key and holds under concurrency: exactly the limit passes", async () => {
    const clock = manualClock();
    h = await apiHarness({ rateLimit: 30, rateLimitWindowSeconds: 10 }, { clock });
    const rs = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? h.request("/v1/calls") : h.postJson("/v1/calls", {}))));
    expect(rs.filter((r) => r.status === 429)).toHaveLength(20);
    expect(rs.filter((r) => r.status !== 429).every((r) => r.status === 200 || r.status === 201)).toBe(true);
    const other = await h.newCompanyKey();
    expect((await h.request("/v1/calls", { key: other.key })).status).toBe(200);
    // Another key of the same company has its own window.
    const second = await h.keyWithScopes(["calls:read"]);
    expect((await h.request("/v1/calls", { key: second })).status).toBe(200);
  });

  it("the inbound webhook shares its key's window; errors after authentication count and carry the headers", async () => {
    const clock = manualClock();
    h = await apiHarness({ rateLimit: 3, rateLimitWindowSeconds: 60 }, { clock });
    const a = await h.postJson("/webhooks/inbound/generic", { id: "w1" });
    expect(a.status).toBe(201);
    expect(a.headers.get("x-ratelimit-remaining")).toBe("2");
    const b = await h.request("/v1/calls/999");
    expect(b.status).toBe(404);
    expect(b.headers.get("x-ratelimit-remaining")).toBe("1");
    const readOnly = await h.keyWithScopes(["calls:read"]);
    expect((await h.request("/v1/calls", { key: readOnly })).headers.get("x-ratelimit-remaining")).toBe("2");
    expect((await h.postJson("/v1/calls", { bad: 1 })).headers.get("x-ratelimit-remaining")).toBe("0");
    const over = await h.postJson("/webhooks/inbound/generic", { id: "w2" });
    expect(over.status).toBe(429);
    expect((await over.json()).error).toBe("rate_limited");
    expect(await h.s.store.db.selectFrom("calls").selectAll().execute()).toHaveLength(1);
  });

  it("rateLimit 0 turns limiting off (no headers)", async () => {
    h = await apiHarness({ rateLimit: 0 });
    for (let i = 0; i < 5; i++) {
      const r = await h.request("/v1/calls");
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-limit")).toBeNull();
    }
  });
});
