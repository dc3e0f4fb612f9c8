import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiHarness, type ApiHarness } from "../helpers/api.js";

const PATH = "/webhooks/inbound/generic";

describe("POST /webhooks/inbound/generic", () => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness();
  });
  afterEach(() => h.dispose());
  const calls = () => h.s.store.db.selectFrom("calls").selectAll().orderBy("id").execute();

  it("maps keys, stores the raw payload byte for byte, answers only call_id and status", async () => {
    const raw =
      '{ "call_id": 9876, "agent_name": "Ann",  "agent_email": "ann@x.io", "contact_name": "Bob", "from": "+15550100", "email": "bob@x.io", "recording": "https://r.example/9876.mp3", "duration": "95", "started_at": "2024-05-01T14:30:00Z", "contact_id": "C-1", "deal_id": "D-1", "source_system": "aircall", "unmapped": {"keep": ["me", 1]}, "text": "caf\u00e9 ☕" }';
    const r = await h.postJson(PATH, raw);
    expect(r.status).toBe(201);
    const b = await r.json();
    expect(b).toEqual({ call_id: expect.any(Number), status: "received" });
    const [row] = await calls();
    expect(row).toMatchObject({
      id: b.call_id,
      external_call_id: "9876",
      rep_name: "Ann",
      rep_email: "ann@x.io",
      customer_name: "Bob",
      customer_phone: "+15550100",
      customer_email: "bob@x.io",
      recording_url: "https://r.example/9876.mp3",
      duration_seconds: 95,
      call_started_at: "2024-05-01T14:30:00.000Z",
      crm_contact_id: "C-1",
      crm_deal_id: "D-1",
      source_system: "aircall",
      intake: "inbound_webhook",
      processing_status: "queued",
    });
    expect(row.raw_payload).toBe(raw);
    expect(await h.s.store.db.selectFrom("jobs").selectAll().execute()).toHaveLength(1);
  });

  it("without source_system the call is `generic`; the API reads the call", async () => {
    const { call_id } = await (await h.postJson(PATH, { id: "x1" })).json();
    expect((await calls())[0].source_system).toBe("generic");
    const g = await h.request(`/api/v1/calls/${call_id}`);
    expect((await g.json()).external_call_id).toBe("x1");
  });

  it("dedupes on the mapped external id, shared with POST /calls of the same company", async () => {
    const a = await (await h.postJson("/v1/calls", { external_call_id: "shared-1" })).json();
    const r = await h.postJson(PATH, { call_id: "shared-1", agent_name: "someone" });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ call_id: a.call_id, status: "duplicate" });
    const r2 = await h.postJson(PATH, { id: 77 });
    const r3 = await h.postJson("/v1/calls", { external_call_id: "77" });
    expect(r2.status).toBe(201);
    expect(r3.status).toBe(200);
    expect((await r3.json()).call_id).toBe((await r2.json()).call_id);
    expect(await calls()).toHaveLength(2);
  });

  it("concurrent identical webhooks create one call", async () => {
    const rs = await Promise.all(Array.from({ length: 15 }, () => h.postJson(PATH, { id: "burst" })));
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 200)).toHaveLength(14);
    expect(await calls()).toHaveLength(1);
  });

  it("payloads without an external id always create a new call", async () => {
    expect((await h.postJson(PATH, { agent_name: "a" })).status).toBe(201);
    expect((await h.postJson(PATH, { agent_name: "a" })).status).toBe(201);
    expect(await calls()).toHaveLength(2);
  });

  it("another company's identical external id is its own call", async () => {
    const other = await h.newCompanyKey();
    expect((await h.postJson(PATH, { id: "same" })).status).toBe(201);
    expect((await h.postJson(PATH, { id: "same" }, { key: other.key })).status).toBe(201);
  });

  it.each([["{}"], [""], ["   "], ["{ }"]])("%j is 422 empty_payload", async (body) => {
    const r = await h.postJson(PATH, body);
    expect(r.status).toBe(422);
    expect((await r.json()).error).toBe("empty_payload");
    expect(await calls()).toHaveLength(0);
  });

  it("bad JSON is 400 invalid_json; a non-object is 422 validation_failed; a bad mapped value is 422 validation_failed", async () => {
    const bad = await h.postJson(PATH, '{"id": ');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("invalid_json");
    const arr = await h.postJson(PATH, "[1]");
    expect(arr.status).toBe(422);
    expect((await arr.json()).error).toBe("validation_failed");
    const v = await h.postJson(PATH, { id: "v1", email: "not-an-email", recording_url: "file:///etc/passwd" });
    expect(v.status).toBe(422);
    const vb = await v.json();
    expect(vb.error).toBe("validation_failed");
    expect(Object.keys(vb.errors).sort()).toEqual(["email", "recording_url"]);
    expect(await calls()).toHaveLength(0);
  });

  it("over 1 MiB is 413 payload_too_large", async () => {
    const r = await h.postJson(PATH, { id: "big", blob: "x".repeat(1024 * 1024) });
    expect(r.status).toBe(413);
    expect((await r.json()).error).toBe("payload_too_large");
  });

  it("accepts a JSON body sent with another content type (webhook senders vary)", async () => {
    const r = await h.request(PATH, { method: "POST", headers: { "content-type": "text/plain" }, body: '{"id":"tp"}' });
    expect(r.status).toBe(201);
  });

  it("is not served under the versioned bases", async () => {
    const r = await h.postJson(`/v1${PATH}`, { id: "x" });
    expect(r.status).toBe(404);
    expect((await r.json()).error).toBe("not_found");
  });
});
