import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { audioPath } from "../../src/audio/store.js";
import { Dispatcher } from "../../src/events/dispatcher.js";
import { createWebhookEndpoint } from "../../src/events/endpoints.js";
import { silentLogger } from "../../src/logger.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { listAuditEntries } from "../../src/store/audit-log.js";
import { startReceiver, type Receiver } from "../events/receiver.js";
import { apiHarness, BASES, type ApiHarness } from "../helpers/api.js";
import { filesContaining } from "../helpers/data-dir.js";
import { fixture } from "../helpers/fixtures.js";

const PHRASE = "marmalade xylophone quorum";
const NAME = "Quentin Zabriskie-Vantablack";

const vtt = (extra: string) => `WEBVTT

00:00:00.500 --> 00:00:04.000
<v Anna>Hi Ben, this call is being recorded. How are things?

00:00:04.400 --> 00:00:09.000
<v Ben>How much does the ${PHRASE} plan cost per month? ${extra}
`;

describe("DELETE /v1/calls/{id}", () => {
  let h: ApiHarness;
  let r: Receiver;
  let deleteKey: string;
  beforeEach(async () => {
    h = await apiHarness();
    r = await startReceiver();
    deleteKey = await h.keyWithScopes(["calls:read", "calls:delete"]);
  });
  afterEach(async () => {
    await r.close();
    await h.dispose();
  });

  async function submitWithTranscript(externalId: string, extra = "") {
    const created = await h.postJson("/v1/calls", { external_call_id: externalId, customer_name: NAME });
    expect(created.status).toBe(201);
    const id = (await created.json()).call_id as number;
    const imp = await h.request(`/v1/calls/${id}/transcript?rep_speaker=Anna`, { method: "POST", body: vtt(extra), headers: { "content-type": "text/vtt" } });
    expect(imp.status).toBe(202);
    await runOnce(h.s);
    return id;
  }

  it("erases transcript, reports, history, deliveries and every byte of the words from the data dir; audit keeps ids only", async () => {
    const ep = await createWebhookEndpoint(h.s.store.db, { companyId: h.company.id, url: r.url });
    r.secrets = [ep.secret];
    const id = await submitWithTranscript("ext-erase-1");
    const dispatcher = new Dispatcher(h.s.store.db, h.s.clock, silentLogger, { timeoutMs: 2_000 });
    await dispatcher.drain();
    const beforeCount = r.received.length;
    expect(r.received.some((x) => x.raw.toString().includes(PHRASE))).toBe(true);

    const transcript = await h.request(`/v1/calls/${id}/transcript`);
    expect(transcript.status).toBe(200);
    expect(JSON.stringify(await transcript.json())).toContain(PHRASE);
    const report = await h.request(`/api/v1/calls/${id}/report`);
    expect(report.status).toBe(200);
    expect(JSON.stringify(await report.json())).toContain(PHRASE);
    // The words are on disk before the erasure (so the check below can fail).
    expect(filesContaining(h.s.dir, PHRASE).length).toBeGreaterThan(0);

    const res = await h.request(`/v1/calls/${id}`, { method: "DELETE", key: deleteKey, headers: { "x-request-id": "req-erase-1" } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");

    for (const path of [`/v1/calls/${id}`, `/v1/calls/${id}/transcript`, `/v1/calls/${id}/report`]) {
      const gone = await h.request(path);
      expect(gone.status).toBe(404);
      expect((await gone.json()).error).toBe("not_found");
    }
    const db = h.s.store.db;
    for (const table of ["transcripts", "reports", "call_history", "jobs"] as const) {
      expect(await db.selectFrom(table).select("id").where("call_id", "=", id).execute()).toEqual([]);
    }
    expect(await db.selectFrom("events").select("id").where("call_id", "=", id).execute()).toEqual([]);
    expect(filesContaining(h.s.dir, PHRASE)).toEqual([]);
    expect(filesContaining(h.s.dir, NAME)).toEqual([]);

    // call.deleted reaches the endpoint subscribed to everything, carrying ids only.
    await dispatcher.drain();
    const deleted = r.received.slice(beforeCount).find((x) => x.body.type === "call.deleted");
    expect(deleted?.verified).toEqual([true]);
    expect(deleted!.body.data).toEqual({ call_id: id, external_call_id: "ext-erase-1", crm_contact_id: null, crm_deal_id: null, reason: "request" });
    expect(deleted!.raw.toString()).not.toContain(NAME);

    const entries = await listAuditEntries(db, { callId: id, limit: 10 });
    expect(entries.map((e) => e.action).sort()).toEqual(["call.delete", "report.read", "transcript.read"]);
    const del = entries.find((e) => e.action === "call.delete")!;
    expect(del).toMatchObject({ actor_type: "api_key", request_id: "req-erase-1", company_id: h.company.id });
    expect(deleteKey).toContain(`cc_${del.actor}_`);
    expect(JSON.stringify(entries)).not.toContain(PHRASE);

    // The external id is free again.
    const again = await h.postJson("/v1/calls", { external_call_id: "ext-erase-1" });
    expect(again.status).toBe(201);
    expect((await again.json()).call_id).not.toBe(id);
    await dispatcher.stop();
  });

  it("a long transcript (stored across overflow pages) and a reprocessed call leave nothing behind either", async () => {
    const filler = Array.from({ length: 60 }, (_, i) => `Line ${i} about rollout plans and onboarding for the team, nothing sensitive here.`).join(" ");
    const id = await submitWithTranscript("ext-erase-long", filler);
    expect((await h.request(`/v1/calls/${id}/reprocess`, { method: "POST" })).status).toBe(200);
    await runOnce(h.s);
    const row = await h.s.store.db.selectFrom("transcripts").select("segments").where("call_id", "=", id).executeTakeFirstOrThrow();
    expect(row.segments.length).toBeGreaterThan(4096);
    expect((await h.s.store.db.selectFrom("reports").select("id").where("call_id", "=", id).execute()).length).toBe(2);
    expect(filesContaining(h.s.dir, PHRASE).length).toBeGreaterThan(0);
    expect((await h.request(`/v1/calls/${id}`, { method: "DELETE", key: deleteKey })).status).toBe(204);
    expect(filesContaining(h.s.dir, PHRASE)).toEqual([]);
    expect(filesContaining(h.s.dir, "rollout plans and onboarding")).toEqual([]);
  });

  it("delivered payloads become tombstones; unsent deliveries are dropped", async () => {
    const ep = await createWebhookEndpoint(h.s.store.db, { companyId: h.company.id, url: r.url });
    r.secrets = [ep.secret];
    const id = await submitWithTranscript("ext-erase-2");
    const db = h.s.store.db;
    // Send only the first event, leave the rest pending.
    const first = await db.selectFrom("webhook_deliveries").select("id").orderBy("id").executeTakeFirst();
    expect(first).toBeUndefined(); // nothing fanned out yet
    const dispatcher = new Dispatcher(db, h.s.clock, silentLogger, { timeoutMs: 2_000 });
    await dispatcher.drain();
    await dispatcher.stop();
    const delivered = await db.selectFrom("webhook_deliveries").select(["id", "event_row_id"]).where("status", "=", "delivered").execute();
    expect(delivered.length).toBeGreaterThan(2);
    // Make one of them unsent again, as if its receiver had failed.
    await db
      .updateTable("webhook_deliveries")
      .set({ status: "retrying", next_attempt_at: "2999-01-01T00:00:00.000Z" })
      .where("id", "=", delivered[0].id)
      .execute();

    expect((await h.request(`/v1/calls/${id}`, { method: "DELETE", key: deleteKey })).status).toBe(204);
    expect(await db.selectFrom("webhook_deliveries").select("id").where("id", "=", delivered[0].id).execute()).toEqual([]);
    const kept = await db
      .selectFrom("events")
      .select(["id", "payload"])
      .where(
        "id",
        "in",
        delivered.slice(1).map((d) => d.event_row_id),
      )
      .execute();
    expect(kept).toHaveLength(delivered.length - 1);
    for (const e of kept) expect(JSON.parse(e.payload).data).toEqual({ call_id: id, erased: true });
  });

  it("needs calls:delete (not a default scope), is company-scoped, and refuses a call a worker holds", async () => {
    const id = (await (await h.postJson("/v1/calls", { external_call_id: "ext-erase-3" })).json()).call_id as number;
    for (const base of BASES) {
      const forbidden = await h.request(`${base}/calls/${id}`, { method: "DELETE" });
      expect(forbidden.status).toBe(403);
      expect((await forbidden.json()).error).toBe("forbidden");
    }
    const other = await h.newCompanyKey("Other", ["calls:delete"]);
    const foreign = await h.request(`/v1/calls/${id}`, { method: "DELETE", key: other.key });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error).toBe("not_found");
    expect((await h.request(`/v1/calls/abc`, { method: "DELETE", key: deleteKey })).status).toBe(404);

    // A worker claims the job: 409 conflict with the status, nothing erased.
    await h.s.store.db
      .updateTable("jobs")
      .set({ status: "running", locked_by: "w", locked_until: "2999-01-01T00:00:00.000Z" })
      .where("call_id", "=", id)
      .execute();
    const busy = await h.request(`/api/v1/calls/${id}`, { method: "DELETE", key: deleteKey });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ error: "conflict", status: "queued" });
    expect((await h.request(`/v1/calls/${id}`)).status).toBe(200);

    await h.s.store.db.updateTable("jobs").set({ status: "queued", locked_by: null, locked_until: null }).where("call_id", "=", id).execute();
    expect((await h.request(`/api/v1/calls/${id}`, { method: "DELETE", key: deleteKey })).status).toBe(204);
    expect(await runOnce(h.s)).toBeNull();
  });

  it("removes the audio file only with the last call that uses the same bytes", async () => {
    const bytes = fs.readFileSync(fixture("jfk.wav"));
    const upload = async () => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)], { type: "audio/wav" }), "a.wav");
      const res = await h.request("/v1/uploads", { method: "POST", body: form });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()).call_id as number;
    };
    const a = await upload();
    const b = await upload();
    const sha = (await h.s.store.db.selectFrom("calls").select("audio_sha256").where("id", "=", a).executeTakeFirstOrThrow()).audio_sha256!;
    const file = audioPath(h.s.config.audioDir, sha);
    expect(fs.existsSync(file)).toBe(true);
    expect((await h.request(`/v1/calls/${a}`, { method: "DELETE", key: deleteKey })).status).toBe(204);
    expect(fs.existsSync(file)).toBe(true);
    expect((await h.request(`/v1/calls/${b}`, { method: "DELETE", key: deleteKey })).status).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
  });
});
