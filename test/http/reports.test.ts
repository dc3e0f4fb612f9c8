import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { transitionCall } from "../../src/calls/state.js";
import { validateReport } from "../../src/report/validate.js";
import { insertReport, listReports } from "../../src/store/reports.js";
import { BASES, apiHarness, type ApiHarness } from "../helpers/api.js";

const REPORT = {
  overall_score: 72,
  score_breakdown: {
    rapport: 7,
    discovery: 6,
    needs_analysis: 6,
    value_articulation: 7,
    objection_handling: 5,
    active_listening: 8,
    talk_ratio: 6,
    next_steps: 7,
    qualification: 6,
    pricing_confidence: 5,
    closing: 6,
    compliance: 9,
  },
  summary: "The rep walked the customer through pricing and agreed a follow-up.",
  call_outcome: "follow_up_scheduled",
  close_likelihood: 55,
  objections: [{ objection: "Too expensive", raised_by: "customer", handled: true, suggested_response: "Show ROI." }],
  buying_signals: [{ signal: "Asked about onboarding", strength: "moderate" }],
  missed_opportunities: [],
  coaching_notes: { priority: "medium", detail: "Quantify value earlier." },
  rep_strengths: ["listening"],
  rep_weaknesses: ["pricing"],
  suggested_follow_up: "Send the ROI sheet.",
  crm_note: "Follow-up booked.",
  compliance_alerts: [],
  timeline: [{ t: 0, phase: "opening" }],
  confidence_level: "medium",
};

describe("GET /calls/{id}/report and POST /calls/{id}/reprocess", () => {
  let h: ApiHarness;
  let callId: number;
  beforeEach(async () => {
    h = await apiHarness();
    callId = (await (await h.postJson("/v1/calls", { external_call_id: "r1" })).json()).call_id;
  });
  afterEach(() => h.dispose());

  /** Drives the call to complete with a stored report, as the pipeline does. */
  async function complete(id: number, report: Record<string, unknown> = REPORT) {
    const valid = validateReport(report);
    await h.s.store.db.transaction().execute(async (trx) => {
      await transitionCall(trx, id, "transcribing");
      await transitionCall(trx, id, "analyzing");
      await insertReport(trx, { callId: id, analyzer: "placeholder", reportJson: JSON.stringify(valid), createdAt: new Date().toISOString() });
      await transitionCall(trx, id, "complete", { overallScore: valid.overall_score, outcome: valid.call_outcome });
    });
  }

  it.each(BASES)("409 report_not_ready with the processing status while pending (%s)", async (base) => {
    const r = await h.request(`${base}/calls/${callId}/report`);
    expect(r.status).toBe(409);
    expect(await r.json()).toEqual({ error: "report_not_ready", message: expect.any(String), status: "queued" });
    await h.s.store.db.transaction().execute((trx) => transitionCall(trx, callId, "transcribing"));
    expect((await (await h.request(`${base}/calls/${callId}/report`)).json()).status).toBe("transcribing");
  });

  it.each(BASES)("200 {call_id, report} once complete, and the call shows report_url (%s)", async (base) => {
    await complete(callId);
    const r = await h.request(`${base}/calls/${callId}/report`);
    expect(r.status).toBe(200);
    const b = await r.json();
    expect(b).toEqual({ call_id: callId, report: validateReport(REPORT) });
    const call = await (await h.request(`${base}/calls/${callId}`)).json();
    expect(call).toMatchObject({
      processing_status: "complete",
      report_status: "ready",
      overall_score: 72,
      outcome: "follow_up_scheduled",
      report_url: `/api/v1/calls/${callId}/report`,
    });
  });

  it("404 not_found for unknown, non-integer and other companies' calls", async () => {
    await complete(callId);
    const other = await h.newCompanyKey();
    for (const [path, key] of [
      [`/v1/calls/${callId}/report`, other.key],
      ["/v1/calls/424242/report", h.key],
      ["/v1/calls/x/report", h.key],
      [`/v1/calls/${callId}/reprocess`, other.key],
      ["/api/v1/calls/424242/reprocess", h.key],
      ["/api/v1/calls/abc/reprocess", h.key],
    ] as const) {
      const r = path.endsWith("reprocess") ? await h.request(path, { method: "POST", key }) : await h.request(path, { key });
      expect(r.status, path).toBe(404);
      expect((await r.json()).error).toBe("not_found");
    }
    // The other company's reprocess changed nothing.
    expect((await (await h.request(`/v1/calls/${callId}`)).json()).processing_status).toBe("complete");
  });

  it("reprocess of a complete call: queued, report pending, report_url null, a new job, the old report kept", async () => {
    await complete(callId);
    await h.s.store.db.updateTable("jobs").set({ status: "completed" }).where("call_id", "=", callId).execute();
    const r = await h.request(`/api/v1/calls/${callId}/reprocess`, { method: "POST" });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ call_id: callId, status: "reprocessing" });
    const call = await (await h.request(`/v1/calls/${callId}`)).json();
    expect(call).toMatchObject({ processing_status: "queued", report_status: "pending", report_url: null });
    const jobs = await h.s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", callId).orderBy("id").execute();
    expect(jobs.map((j) => j.status)).toEqual(["completed", "queued"]);
    expect(await listReports(h.s.store.db, callId)).toHaveLength(1);
    const history = await h.s.store.db.selectFrom("call_history").selectAll().where("call_id", "=", callId).orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(history).toMatchObject({ from_status: "complete", to_status: "queued", reason: "reprocess" });
    // Report answers 409 again until the new one is ready.
    const rep = await h.request(`/v1/calls/${callId}/report`);
    expect(rep.status).toBe(409);
    expect((await rep.json()).status).toBe("queued");
  });

  it("reprocess of a failed call re-queues it and clears failure_reason", async () => {
    await h.s.store.db.transaction().execute((trx) => transitionCall(trx, callId, "failed", { failureReason: "no_audio" }));
    await h.s.store.db.updateTable("jobs").set({ status: "failed" }).where("call_id", "=", callId).execute();
    expect((await h.request(`/v1/calls/${callId}/reprocess`, { method: "POST" })).status).toBe(200);
    const call = await (await h.request(`/v1/calls/${callId}`)).json();
    expect(call).toMatchObject({ processing_status: "queued", failure_reason: null });
    expect(await h.s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", callId).where("status", "=", "queued").execute()).toHaveLength(1);
  });

  it.each(["queued", "transcribing", "analyzing"] as const)("reprocess while %s answers 200 and adds no job, changes nothing", async (state) => {
    if (state !== "queued") await h.s.store.db.transaction().execute((trx) => transitionCall(trx, callId, "transcribing"));
    if (state === "analyzing") await h.s.store.db.transaction().execute((trx) => transitionCall(trx, callId, "analyzing"));
    const before = await h.s.store.db.selectFrom("call_history").selectAll().execute();
    const rs = await Promise.all([1, 2, 3].map(() => h.request(`/v1/calls/${callId}/reprocess`, { method: "POST" })));
    for (const r of rs) {
      expect(r.status).toBe(200);
      expect((await r.json()).status).toBe("reprocessing");
    }
    expect(await h.s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", callId).execute()).toHaveLength(1);
    expect(await h.s.store.db.selectFrom("call_history").selectAll().execute()).toEqual(before);
    expect((await (await h.request(`/v1/calls/${callId}`)).json()).processing_status).toBe(state);
  });

  it("concurrent reprocess of a complete call adds exactly one job", async () => {
    await complete(callId);
    await h.s.store.db.updateTable("jobs").set({ status: "completed" }).where("call_id", "=", callId).execute();
    const rs = await Promise.all(Array.from({ length: 10 }, () => h.request(`/v1/calls/${callId}/reprocess`, { method: "POST" })));
    expect(rs.every((r) => r.status === 200)).toBe(true);
    expect(await h.s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", callId).where("status", "=", "queued").execute()).toHaveLength(1);
  });
});
