import { FIRST_RUN_EVENTS } from "../helpers/events.js";
import { defaultAudioDir } from "../../src/config.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acceptCall } from "../../src/intake/accept-call.js";
import { StageError, type Analyzer, type Transcriber } from "../../src/pipeline/ports.js";
import { placeholderAnalyzer } from "../../src/pipeline/analyzers/placeholder.js";
import { selectPipeline, type PipelineParts } from "../../src/pipeline/select.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { setQueuePipeline } from "../../src/queue/job-pipeline.js";
import { reprocessCall } from "../../src/intake/reprocess.js";
import { placeholderReport } from "../../src/pipeline/analyzers/placeholder.js";
import { createCompany } from "../../src/store/companies.js";
import { latestReport } from "../../src/store/reports.js";
import { insertTranscript } from "../../src/store/transcripts.js";
import { storeKinds, type StoreKind } from "../helpers/postgres.js";
import { testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

/** A clock the test moves by hand: backoff and leases without sleeping. */
function manualClock(start = Date.now() + 1000) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

async function eventTypes(s: S, callId: number): Promise<string[]> {
  const rows = await s.store.db.selectFrom("events").select(["type"]).where("call_id", "=", callId).orderBy("id").execute();
  return rows.map((r) => r.type);
}

async function drain(s: S, parts?: PipelineParts, max = 50) {
  const outcomes = [];
  for (let i = 0; i < max; i++) {
    const o = await runOnce(s, { parts });
    if (!o) break;
    outcomes.push(o);
  }
  return outcomes;
}

describe.each(storeKinds())("worker on $name: stages, transitions and their events", (kind: StoreKind) => {
  let s: S;
  let clock: ReturnType<typeof manualClock>;
  let companyId: number;
  beforeEach(async () => {
    clock = manualClock();
    s = await testServices({ retryBaseMs: 1000, databaseUrl: await kind.freshDatabaseUrl() }, { clock });
    companyId = (await createCompany(s.store.db, { name: "Acme", low_score_threshold: 101 })).id;
  });
  afterEach(() => s.dispose());

  it("a placeholder call completes with the exact event sequence, report stored and copied onto the call", async () => {
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "c1", rep_name: "Ann", duration_seconds: 300 } });
    const [o] = await drain(s);
    expect(o).toMatchObject({ callId: call.id, result: "completed" });
    const types = await eventTypes(s, call.id);
    expect(types.slice(0, 6)).toEqual([...FIRST_RUN_EVENTS, "call.low_score_detected"]);
    const row = await s.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow();
    const report = JSON.parse((await latestReport(s.store.db, call.id))!.report);
    expect(row).toMatchObject({ processing_status: "complete", report_status: "ready", overall_score: report.overall_score, outcome: report.call_outcome });
    // threshold 101: every score is low, so a manager must review.
    expect(report.manager_review_required).toBe(true);
    const low = await s.store.db
      .selectFrom("events")
      .selectAll()
      .where("call_id", "=", call.id)
      .where("type", "=", "call.low_score_detected")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(low.payload).data).toMatchObject({ overall_score: report.overall_score, threshold: 101 });
    const done = await s.store.db
      .selectFrom("events")
      .selectAll()
      .where("call_id", "=", call.id)
      .where("type", "=", "call.report_completed")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(done.payload).data.report).toEqual(report);
    expect(JSON.parse(done.payload).data.call.report_url).toBe(`/api/v1/calls/${call.id}/report`);
    const job = await s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", call.id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: "completed", locked_until: null, locked_by: expect.stringContaining(`:${process.pid}:`) });
  });

  it("a live call without audio fails with no_audio at once (not retryable)", async () => {
    const analyzer: Analyzer = placeholderAnalyzer;
    const transcriber: Transcriber = {
      name: "unused",
      transcribe: async () => {
        throw new Error("must not be called");
      },
    };
    const parts: PipelineParts = { mode: "live", transcriber, analyzer, transcriptAnalyzer: () => analyzer };
    // The job must ask for the live pipeline, as a live process would queue it.
    setQueuePipeline(s.store.db, "live");
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const outcomes = await drain(s, parts);
    expect(outcomes).toEqual([{ jobId: expect.any(Number), callId: call.id, result: "failed", reason: "no_audio" }]);
    expect(await eventTypes(s, call.id)).toEqual(["call.received", "call.processing_started", "call.failed"]);
    const failed = await s.store.db.selectFrom("events").selectAll().where("call_id", "=", call.id).where("type", "=", "call.failed").executeTakeFirstOrThrow();
    expect(JSON.parse(failed.payload).data).toMatchObject({ failure_reason: "no_audio", call: { processing_status: "failed", failure_reason: "no_audio" } });
  });

  it("retryable errors back off, then end failed with the reason; events are not repeated by retries", async () => {
    let calls = 0;
    const analyzer: Analyzer = {
      name: "flaky",
      analyze: async () => {
        calls++;
        throw new StageError("analysis_failed", "model busy", true);
      },
    };
    const parts: PipelineParts = { mode: "placeholder", transcriber: null, analyzer, transcriptAnalyzer: () => analyzer };
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const runAts: number[] = [];
    for (;;) {
      const o = await runOnce(s, { parts });
      if (o) {
        if (o.result !== "retry") {
          expect(o).toMatchObject({ result: "failed", reason: "analysis_failed" });
          break;
        }
        const job = await s.store.db.selectFrom("jobs").selectAll().where("id", "=", o.jobId).executeTakeFirstOrThrow();
        runAts.push(Date.parse(job.run_at) - clock.now().getTime());
        continue;
      }
      clock.advance(60_000 * 60);
    }
    expect(calls).toBe(5);
    expect(runAts).toEqual([1000, 2000, 4000, 8000]);
    expect(await eventTypes(s, call.id)).toEqual(["call.received", "call.processing_started", "call.transcription_completed", "call.failed"]);
  });

  it("unknown exceptions end as internal_error after retries, without crashing", async () => {
    const analyzer: Analyzer = {
      name: "broken",
      analyze: async () => {
        throw new TypeError("boom");
      },
    };
    const parts: PipelineParts = { mode: "placeholder", transcriber: null, analyzer, transcriptAnalyzer: () => analyzer };
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    let last;
    for (let i = 0; i < 20; i++) {
      last = (await runOnce(s, { parts })) ?? last;
      clock.advance(3_600_000);
    }
    expect(last).toMatchObject({ result: "failed", reason: "internal_error" });
    const row = await s.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ processing_status: "failed", failure_reason: "internal_error" });
  });

  it("an imported transcript skips transcription and is read by the transcript analyzer", async () => {
    const seen: unknown[] = [];
    const reader: Analyzer = {
      name: "reader",
      analyze: async (i) => {
        seen.push(i.transcript);
        return placeholderAnalyzer.analyze(i);
      },
    };
    const parts: PipelineParts = { ...selectPipeline(s), transcriptAnalyzer: () => reader };
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    await insertTranscript(s.store.db, {
      callId: call.id,
      source: "imported",
      transcript: { segments: [{ t_start: 0, t_end: 2, speaker: "rep", text: "Hello" }], metrics: null, language: "en", model: "imported" },
      createdAt: new Date().toISOString(),
    });
    expect(await drain(s, parts)).toMatchObject([{ result: "completed" }]);
    expect(seen).toHaveLength(1);
    expect((await eventTypes(s, call.id)).slice(0, 4)).toEqual([
      "call.received",
      "call.processing_started",
      "call.analysis_completed",
      "call.report_completed",
    ]);
    expect((await latestReport(s.store.db, call.id))!.analyzer).toBe("reader");
  });

  it("the live pipeline without wired engines fails calls with a clear reason instead of stopping", async () => {
    const live = await testServices({ pipeline: "live" });
    try {
      const { call } = await acceptCall(live.store.db, {
        companyId: (await createCompany(live.store.db, { name: "L" })).id,
        intake: "api",
        fields: { metadata: {} },
      });
      const { storeAudioFile } = await import("../../src/audio/store.js");
      const { fixture } = await import("../helpers/fixtures.js");
      const a = await storeAudioFile(defaultAudioDir(live.dir), fixture("jfk.wav"), { maxBytes: 1 << 30 });
      await live.store.db.updateTable("calls").set({ audio_sha256: a.sha256, audio_format: a.format }).where("id", "=", call.id).execute();
      const o = await runOnce(live);
      expect(o).toMatchObject({ result: "failed", reason: "transcriber_unavailable" });
    } finally {
      await live.dispose();
    }
  });

  it("exact event sequence of a completed call, then of its reprocess; every event of a run fires once", async () => {
    await s.store.db.updateTable("companies").set({ low_score_threshold: 60 }).execute();
    const fixed: Analyzer = {
      name: "fixed",
      analyze: async ({ call }) => ({
        ...placeholderReport(call),
        overall_score: 40,
        buying_signals: [{ signal: "Asked for a quote", strength: "strong" }],
        compliance_alerts: [{ type: "disclosure", severity: "high", detail: "No recording notice" }],
        manager_review_required: false,
      }),
    };
    const parts: PipelineParts = { mode: "placeholder", transcriber: null, analyzer: fixed, transcriptAnalyzer: () => fixed };
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: { crm_contact_id: "C-1", crm_deal_id: "D-1" } });
    await drain(s, parts);
    const run = [
      "call.processing_started",
      "call.transcription_completed",
      "call.analysis_completed",
      "call.report_completed",
      "call.low_score_detected",
      "call.buying_signal_detected",
      "call.compliance_alert_detected",
    ];
    expect(await eventTypes(s, call.id)).toEqual(["call.received", ...run]);
    await reprocessCall(s.store.db, { companyId, callId: call.id });
    await drain(s, parts);
    expect(await eventTypes(s, call.id)).toEqual(["call.received", ...run, ...run]);
    const rows = await s.store.db.selectFrom("events").selectAll().where("call_id", "=", call.id).orderBy("id").execute();
    const bodies = rows.map((r) => JSON.parse(r.payload));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(bodies.length);
    for (const b of bodies) expect(b.data).toMatchObject({ crm_contact_id: "C-1", crm_deal_id: "D-1", call: { call_id: call.id } });
    const byType = (t: string) => bodies.filter((b) => b.type === t).at(-1).data;
    expect(byType("call.buying_signal_detected").buying_signals).toEqual([{ signal: "Asked for a quote", strength: "strong" }]);
    expect(byType("call.compliance_alert_detected").compliance_alerts).toHaveLength(1);
    // manager review forced on: a compliance alert and a low score
    expect(byType("call.report_completed").report.manager_review_required).toBe(true);
    expect(byType("call.processing_started").call.processing_status).toBe("transcribing");
  });

  it("a job resumed after a crash does not repeat transitions already made", async () => {
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    // A worker took the job, moved the call to transcribing, then died (lease runs out).
    const { claimJob } = await import("../../src/queue/claim-job.js");
    const { applyTransition } = await import("../../src/pipeline/transitions.js");
    await claimJob(s.store.db, { workerId: "dead", leaseMs: 5_000, now: clock.now() });
    await s.store.db.transaction().execute((trx) => applyTransition(trx, call.id, { to: "transcribing", now: clock.now() }));
    expect(await runOnce(s)).toBeNull();
    clock.advance(6_000);
    expect(await runOnce(s)).toMatchObject({ result: "completed" });
    const types = await eventTypes(s, call.id);
    expect(types.filter((t) => t === "call.processing_started")).toHaveLength(1);
    expect(types.slice(0, 5)).toEqual([...FIRST_RUN_EVENTS]);
  });
});
