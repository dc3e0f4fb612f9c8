import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BASES, apiHarness, type ApiHarness } from "../helpers/api.js";

describe("POST /calls, GET /calls, GET /calls/{id}", () => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness();
  });
  afterEach(() => h.dispose());

  it.each(BASES)("creates a call under %s and reads it back", async (base) => {
    const r = await h.postJson(`${base}/calls`, {
      external_call_id: "ext-1",
      rep_name: "Ann",
      rep_email: "ann@example.com",
      customer_name: "Bob",
      customer_email: "bob@example.com",
      call_started_at: "2024-05-01T14:30:00Z",
      call_ended_at: "2024-05-01T15:00:00+02:00",
      duration_seconds: 1800,
      recording_url: "https://rec.example.com/a.mp3",
      source_system: "dialer",
      crm_contact_id: "c1",
      crm_deal_id: "d1",
      metadata: { high_value_opportunity: true, anything: [1, 2] },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get("x-request-id")).toBeTruthy();
    const body = await r.json();
    expect(body).toEqual({ call_id: expect.any(Number), status: "received", processing_status_url: `/api/v1/calls/${body.call_id}`, report_url: null });

    const g = await h.request(`${base}/calls/${body.call_id}`);
    expect(g.status).toBe(200);
    expect(await g.json()).toEqual({
      call_id: body.call_id,
      external_call_id: "ext-1",
      customer_name: "Bob",
      processing_status: "queued",
      report_status: "pending",
      overall_score: null,
      outcome: null,
      failure_reason: null,
      failure_detail: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      report_url: null,
    });
    const row = await h.s.store.db.selectFrom("calls").selectAll().where("id", "=", body.call_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source_system: "dialer", intake: "api", priority: 10, duration_seconds: 1800, crm_deal_id: "d1" });
    expect(JSON.parse(row.metadata)).toEqual({ high_value_opportunity: true, anything: [1, 2] });
    expect(await h.s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", body.call_id).execute()).toHaveLength(1);
  });

  it("an empty object is a valid submission with source_system generic", async () => {
    const r = await h.postJson("/v1/calls", {});
    expect(r.status).toBe(201);
    const row = await h.s.store.db.selectFrom("calls").selectAll().executeTakeFirstOrThrow();
    expect(row.source_system).toBe("generic");
  });

  it("a repeated external_call_id answers 200 duplicate with the same call_id and writes nothing", async () => {
    const a = await (await h.postJson("/v1/calls", { external_call_id: "dup" })).json();
    const r = await h.postJson("/api/v1/calls", { external_call_id: "dup", rep_name: "changed" });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ call_id: a.call_id, status: "duplicate", processing_status_url: `/api/v1/calls/${a.call_id}`, report_url: null });
    expect(await h.s.store.db.selectFrom("calls").selectAll().execute()).toHaveLength(1);
  });

  it("concurrent distinct submissions (written in shared commits) each get their own call id", async () => {
    const N = 40;
    const rs = await Promise.all(Array.from({ length: N }, (_, i) => h.postJson("/v1/calls", { external_call_id: `many-${i}`, customer_name: `C${i}` })));
    const bodies = await Promise.all(rs.map((r) => r.json()));
    expect(rs.map((r) => r.status)).toEqual(Array(N).fill(201));
    expect(new Set(bodies.map((b) => b.call_id)).size).toBe(N);
    for (let i = 0; i < N; i++) {
      const row = await h.s.store.db
        .selectFrom("calls")
        .select(["external_call_id", "customer_name"])
        .where("id", "=", bodies[i].call_id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ external_call_id: `many-${i}`, customer_name: `C${i}` });
      const jobs = await h.s.store.db.selectFrom("jobs").select("status").where("call_id", "=", bodies[i].call_id).execute();
      expect(jobs).toEqual([{ status: "queued" }]);
    }
  });

  it("N concurrent identical submissions create exactly one call: one 201, the rest 200 duplicate", async () => {
    const N = 25;
    const rs = await Promise.all(Array.from({ length: N }, () => h.postJson("/v1/calls", { external_call_id: "race" })));
    const bodies = await Promise.all(rs.map((r) => r.json()));
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 200)).toHaveLength(N - 1);
    expect(new Set(bodies.map((b) => b.call_id)).size).toBe(1);
    expect(bodies.filter((b) => b.status === "duplicate")).toHaveLength(N - 1);
    expect(await h.s.store.db.selectFrom("calls").selectAll().execute()).toHaveLength(1);
    expect(await h.s.store.db.selectFrom("jobs").selectAll().execute()).toHaveLength(1);
    expect(await h.s.store.db.selectFrom("events").selectAll().execute()).toHaveLength(1);
  });

  it("the same external id in another company is a different call", async () => {
    const other = await h.newCompanyKey();
    const a = await h.postJson("/v1/calls", { external_call_id: "shared" });
    const b = await h.postJson("/v1/calls", { external_call_id: "shared" }, { key: other.key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect((await a.json()).call_id).not.toBe((await b.json()).call_id);
  });

  it("422 validation_failed lists every bad field at once", async () => {
    const r = await h.postJson("/v1/calls", {
      rep_email: "not-an-email",
      customer_email: "x@",
      recording_url: "ftp://files.example.com/a.mp3",
      call_started_at: "yesterday",
      duration_seconds: -1,
      metadata: { high_value_opportunity: "yes" },
      external_call_id: 12,
      surprise: true,
    });
    expect(r.status).toBe(422);
    const b = await r.json();
    expect(b.error).toBe("validation_failed");
    expect(typeof b.message).toBe("string");
    expect(Object.keys(b.errors).sort()).toEqual(
      [
        "call_started_at",
        "customer_email",
        "duration_seconds",
        "external_call_id",
        "metadata.high_value_opportunity",
        "recording_url",
        "rep_email",
        "surprise",
      ].sort(),
    );
    expect(b.errors.surprise).toEqual(["unknown field"]);
    expect(await h.s.store.db.selectFrom("calls").selectAll().execute()).toHaveLength(0);
  });

  it.each([
    ["recording_url", "javascript:alert(1)"],
    ["recording_url", "not a url"],
    ["duration_seconds", 1.5],
    ["duration_seconds", "60"],
    ["call_ended_at", "2024-13-01T00:00:00Z"],
    ["metadata", [1]],
    ["metadata", "x"],
  ])("422 for %s = %j", async (field, value) => {
    const r = await h.postJson("/v1/calls", { [field]: value });
    expect(r.status).toBe(422);
    const b = await r.json();
    expect(b.error).toBe("validation_failed");
    expect(Object.keys(b.errors)).toEqual([field]);
  });

  it.each([["[1,2]"], ['"text"'], ["42"], ["null"]])("a JSON body that is not an object (%s) is 422 validation_failed", async (body) => {
    const r = await h.postJson("/v1/calls", body);
    expect(r.status).toBe(422);
    expect((await r.json()).error).toBe("validation_failed");
  });

  it("unparseable JSON is 400 invalid_json; an empty body too", async () => {
    for (const body of ['{"a":', "", "{'single': 1}"]) {
      const r = await h.postJson("/v1/calls", body);
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ error: "invalid_json" });
    }
  });

  it("a JSON body over 1 MiB is 413 payload_too_large", async () => {
    const r = await h.postJson("/v1/calls", { metadata: { blob: "x".repeat(1024 * 1024) } });
    expect(r.status).toBe(413);
    expect((await r.json()).error).toBe("payload_too_large");
    expect(await h.s.store.db.selectFrom("calls").selectAll().execute()).toHaveLength(0);
  });

  it("a body over 1 MiB without Content-Length is refused while streaming", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(256 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent++ < 6) ctrl.enqueue(chunk);
        else ctrl.close();
      },
    });
    const r = await h.request("/v1/calls", { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    expect(r.status).toBe(413);
    expect((await r.json()).error).toBe("payload_too_large");
  });

  it.each([["text/plain"], ["application/x-www-form-urlencoded"], [""]])("content type %j is 415 unsupported_media_type", async (ct) => {
    const headers: Record<string, string> = ct ? { "content-type": ct } : {};
    const r = await h.request("/v1/calls", { method: "POST", headers, body: ct ? '{"external_call_id":"x"}' : undefined });
    expect(r.status).toBe(415);
    expect((await r.json()).error).toBe("unsupported_media_type");
  });

  it("application/json with a charset is accepted", async () => {
    const r = await h.postJson("/v1/calls", { rep_name: "x" }, { headers: { "content-type": "application/json; charset=utf-8" } });
    expect(r.status).toBe(201);
  });

  it("GET /calls/{id}: 404 not_found for an unknown id, a non-integer id, and another company's call", async () => {
    const { call_id } = await (await h.postJson("/v1/calls", {})).json();
    const other = await h.newCompanyKey();
    for (const base of BASES) {
      for (const [path, key] of [
        [`${base}/calls/999`, h.key],
        [`${base}/calls/abc`, h.key],
        [`${base}/calls/0`, h.key],
        [`${base}/calls/-1`, h.key],
        [`${base}/calls/1.5`, h.key],
        [`${base}/calls/99999999999999999999`, h.key],
        [`${base}/calls/${call_id}`, other.key],
      ] as const) {
        const r = await h.request(path, { key });
        expect(r.status, path).toBe(404);
        expect((await r.json()).error).toBe("not_found");
      }
    }
  });

  it("GET /calls lists newest first with count, has_more and a starting_after cursor", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await (await h.postJson("/v1/calls", { external_call_id: `e${i}` })).json()).call_id);
    const other = await h.newCompanyKey();
    await h.postJson("/v1/calls", { external_call_id: "theirs" }, { key: other.key });

    const all = await (await h.request("/api/v1/calls")).json();
    expect(all.count).toBe(7);
    expect(all.data.map((c: { call_id: number }) => c.call_id)).toEqual([...ids].reverse());
    expect(all.has_more).toBe(false);
    expect(all.starting_after).toBeNull();

    const seen: number[] = [];
    let cursor: number | null = null;
    for (let page = 0; page < 5; page++) {
      const r = await h.request(`/v1/calls?limit=3${cursor ? `&starting_after=${cursor}` : ""}`);
      expect(r.status).toBe(200);
      const b = await r.json();
      expect(b.count).toBe(b.data.length);
      seen.push(...b.data.map((c: { call_id: number }) => c.call_id));
      if (!b.has_more) break;
      cursor = b.starting_after;
      expect(cursor).toBe(b.data[b.data.length - 1].call_id);
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it("GET /calls defaults to 25 and caps at 100", async () => {
    for (let i = 0; i < 30; i++) await h.postJson("/v1/calls", {});
    const d = await (await h.request("/v1/calls")).json();
    expect(d.count).toBe(25);
    expect(d.has_more).toBe(true);
    const m = await (await h.request("/v1/calls?limit=100")).json();
    expect(m.count).toBe(30);
    expect(m.has_more).toBe(false);
  });

  it.each([["limit=0"], ["limit=101"], ["limit=abc"], ["limit=2.5"], ["starting_after=x"], ["starting_after=0"]])(
    "GET /calls?%s is 422 validation_failed",
    async (q) => {
      const r = await h.request(`/v1/calls?${q}`);
      expect(r.status).toBe(422);
      const b = await r.json();
      expect(b.error).toBe("validation_failed");
      expect(Object.keys(b.errors).length).toBeGreaterThan(0);
    },
  );

  it("unknown query parameters are ignored", async () => {
    await h.postJson("/v1/calls", {});
    const r = await h.request("/v1/calls?_=12345&limit=1");
    expect(r.status).toBe(200);
    expect((await r.json()).count).toBe(1);
  });

  it("unknown routes are JSON 404 not_found", async () => {
    const r = await h.request("/v1/nothing");
    expect(r.status).toBe(404);
    expect((await r.json()).error).toBe("not_found");
  });
});
