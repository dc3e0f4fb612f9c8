import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callHistory, transitionCall } from "../../src/calls/state.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { createCompany } from "../../src/store/companies.js";
import { servicesWithCompany, type testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

describe("acceptCall and the state machine", () => {
  let s: S;
  let companyId: number;
  beforeEach(async () => ({ s, companyId } = await servicesWithCompany()));
  afterEach(() => s.dispose());

  it("writes the call, one job, one call.received event and the first history row together", async () => {
    const { call, duplicate } = await acceptCall(s.store.db, {
      companyId,
      intake: "api",
      fields: { external_call_id: "x-1", metadata: { high_value_opportunity: true } },
    });
    expect(duplicate).toBe(false);
    expect(call).toMatchObject({ processing_status: "queued", report_status: "pending", priority: 10 });
    const jobs = await s.store.db.selectFrom("jobs").selectAll().execute();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ call_id: call.id, status: "queued", priority: 10 });
    const events = await s.store.db.selectFrom("events").selectAll().execute();
    expect(events.map((e) => e.type)).toEqual(["call.received"]);
    const body = JSON.parse(events[0].payload);
    expect(body.id).toMatch(/^evt_/);
    expect(body.data.call.call_id).toBe(call.id);
    expect(body.data.external_call_id).toBe("x-1");
    expect((await callHistory(s.store.db, call.id)).map((h) => h.to_status)).toEqual(["queued"]);
  });

  it("stores a transcript brought with the call in the call's own transaction, before its job can be claimed", async () => {
    const transcript = {
      segments: [{ t_start: 0, t_end: 2, speaker: "rep", text: "Hello, this call is recorded." }],
      metrics: null,
      language: "en",
      model: "imported",
    };
    const { call } = await acceptCall(s.store.db, { companyId, intake: "cli", fields: {}, transcript });
    const rows = await s.store.db.selectFrom("transcripts").selectAll().where("call_id", "=", call.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: "imported", language: "en" });
    expect(JSON.parse(rows[0].segments)).toEqual(transcript.segments);
    expect(await s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", call.id).execute()).toHaveLength(1);
  });

  it("concurrent submissions with one external id create exactly one call", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "same" } })),
    );
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(new Set(results.map((r) => r.call.id)).size).toBe(1);
    expect(await s.store.db.selectFrom("jobs").selectAll().execute()).toHaveLength(1);
    expect(await s.store.db.selectFrom("events").selectAll().execute()).toHaveLength(1);
  });

  it("another company may reuse the external id", async () => {
    const other = await createCompany(s.store.db, { name: "Other" });
    const a = await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "e" } });
    const b = await acceptCall(s.store.db, { companyId: other.id, intake: "api", fields: { external_call_id: "e" } });
    expect(b.duplicate).toBe(false);
    expect(b.call.id).not.toBe(a.call.id);
  });

  it("transitions keep report_status consistent, record history and refuse illegal moves", async () => {
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const run = (to: Parameters<typeof transitionCall>[2], opts = {}) => s.store.db.transaction().execute((trx) => transitionCall(trx, call.id, to, opts));
    await expect(run("complete")).rejects.toThrow(/cannot go from queued to complete/);
    expect((await run("transcribing")).changed).toBe(true);
    expect((await run("transcribing")).changed).toBe(false);
    await run("analyzing");
    const done = await run("complete", { overallScore: 71, outcome: "follow_up_scheduled" });
    expect(done.call).toMatchObject({ processing_status: "complete", report_status: "ready", overall_score: 71, outcome: "follow_up_scheduled" });
    const again = await run("queued", { reason: "reprocess" });
    expect(again.call.report_status).toBe("pending");
    await run("transcribing");
    await expect(run("failed")).rejects.toThrow(/failure_reason/);
    const failed = await run("failed", { failureReason: "download_failed" });
    expect(failed.call).toMatchObject({ processing_status: "failed", failure_reason: "download_failed", report_status: "pending" });
    expect((await callHistory(s.store.db, call.id)).map((h) => h.to_status)).toEqual([
      "queued",
      "transcribing",
      "analyzing",
      "complete",
      "queued",
      "transcribing",
      "failed",
    ]);
  });
});
