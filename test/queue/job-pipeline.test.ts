import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acceptCall } from "../../src/intake/accept-call.js";
import { reprocessCall } from "../../src/intake/reprocess.js";
import { silentLogger } from "../../src/logger.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { claimJob } from "../../src/queue/claim-job.js";
import { createServices, type Services } from "../../src/services.js";
import { createCompany } from "../../src/store/companies.js";
import { importCallTranscript } from "../../src/transcripts/import-call-transcript.js";
import { storeKinds, type StoreKind } from "../helpers/postgres.js";
import { tempDir, testConfig } from "../helpers/services.js";

const transcript = {
  segments: [{ t_start: 0, t_end: 2, speaker: "rep" as const, text: "hello, thanks for taking the call" }],
  metrics: null,
  language: "en",
  model: "imported",
};

/**
 * A placeholder `serve` and a live `submit --wait` on one data dir: each
 * process queues jobs for its own pipeline and claims only those (and jobs
 * that need only an analyzer).
 */
describe.each(storeKinds())("jobs carry the pipeline they need, on $name", (kind: StoreKind) => {
  let cleanup: () => void;
  let placeholder: Services;
  let live: Services;
  let companyId: number;

  beforeEach(async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const databaseUrl = await kind.freshDatabaseUrl();
    placeholder = await createServices(testConfig(t.dir, { pipeline: "placeholder", databaseUrl }), { logger: silentLogger });
    live = await createServices(testConfig(t.dir, { pipeline: "live", databaseUrl }), { logger: silentLogger });
    companyId = (await createCompany(placeholder.store.db, { name: "Acme" })).id;
  });
  afterEach(async () => {
    await live.close();
    await placeholder.close();
    cleanup();
  });

  const jobOf = (s: Services, callId: number) =>
    s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", callId).orderBy("id", "desc").executeTakeFirstOrThrow();

  it("a placeholder process's call is never taken by a live worker, and the other way round", async () => {
    const p = await acceptCall(placeholder.store.db, { companyId, intake: "api", fields: { external_call_id: "from-serve" } });
    const l = await acceptCall(live.store.db, { companyId, intake: "cli", fields: { external_call_id: "from-submit" } });
    expect((await jobOf(placeholder, p.call.id)).pipeline).toBe("placeholder");
    expect((await jobOf(live, l.call.id)).pipeline).toBe("live");

    // Each process's worker takes exactly its own call.
    const byPlaceholder = await runOnce(placeholder);
    expect(byPlaceholder).toMatchObject({ callId: p.call.id, result: "completed" });
    expect(await runOnce(placeholder)).toBeNull();
    const taken = await claimJob(live.store.db, { workerId: "live-0", leaseMs: 60_000, now: new Date(), pipelines: ["live", "any"] });
    expect(taken?.call_id).toBe(l.call.id);
    expect((await jobOf(live, l.call.id)).locked_by).toBe("live-0");
  });

  it("a call with an imported transcript needs only an analyzer: either pipeline may run it, also after a reprocess", async () => {
    const { call } = await acceptCall(live.store.db, { companyId, intake: "cli", fields: { external_call_id: "byo" }, transcript });
    expect((await jobOf(live, call.id)).pipeline).toBe("any");
    expect(await runOnce(placeholder)).toMatchObject({ callId: call.id, result: "completed" });

    await reprocessCall(live.store.db, { companyId, callId: call.id });
    expect((await jobOf(live, call.id)).pipeline).toBe("any");
    expect(await runOnce(placeholder)).toMatchObject({ callId: call.id, result: "completed" });
  });

  it("importing a transcript for a call still queued for live transcription frees its job for any worker", async () => {
    const { call } = await acceptCall(live.store.db, { companyId, intake: "cli", fields: { external_call_id: "late-transcript" } });
    expect(await runOnce(placeholder)).toBeNull();
    await importCallTranscript(placeholder.store.db, { companyId, callId: call.id, transcript });
    expect((await jobOf(placeholder, call.id)).pipeline).toBe("any");
    expect(await runOnce(placeholder)).toMatchObject({ callId: call.id, result: "completed" });
  });
});

describe.each(storeKinds())("per-company cap on running jobs, on $name", (kind: StoreKind) => {
  let cleanup: () => void;
  let s: Services;
  beforeEach(async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    s = await createServices(testConfig(t.dir, { databaseUrl: await kind.freshDatabaseUrl() }), { logger: silentLogger });
  });
  afterEach(async () => {
    await s.close();
    cleanup();
  });

  it("a claim skips a company already at its cap and takes the next company's job", async () => {
    const a = (await createCompany(s.store.db, { name: "A" })).id;
    const b = (await createCompany(s.store.db, { name: "B" })).id;
    const callsA = [];
    for (let i = 0; i < 3; i++) callsA.push((await acceptCall(s.store.db, { companyId: a, intake: "api", fields: {} })).call.id);
    const callB = (await acceptCall(s.store.db, { companyId: b, intake: "api", fields: {} })).call.id;
    const claim = (w: string) => claimJob(s.store.db, { workerId: w, leaseMs: 60_000, now: new Date(), companyMaxInflight: 2 });

    expect((await claim("w1"))?.call_id).toBe(callsA[0]);
    expect((await claim("w2"))?.call_id).toBe(callsA[1]);
    // A has 2 running: its third call waits although it is older than B's.
    expect((await claim("w3"))?.call_id).toBe(callB);
    expect(await claim("w4")).toBeUndefined();
    // Without a cap the same queue hands out A's third call.
    expect((await claimJob(s.store.db, { workerId: "w5", leaseMs: 60_000, now: new Date() }))?.call_id).toBe(callsA[2]);
  });

  it("concurrent claimers never put a company over its cap", async () => {
    const a = (await createCompany(s.store.db, { name: "A" })).id;
    for (let i = 0; i < 10; i++) await acceptCall(s.store.db, { companyId: a, intake: "api", fields: {} });
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claimJob(s.store.db, { workerId: `w${i}`, leaseMs: 60_000, now: new Date(), companyMaxInflight: 3 })),
    );
    expect(claims.filter((c) => c !== undefined)).toHaveLength(3);
    const running = await s.store.db.selectFrom("jobs").select("id").where("status", "=", "running").execute();
    expect(running).toHaveLength(3);
  });

  it("a claim waits for a concurrent claim's transaction before counting the company's running jobs", async () => {
    if (kind.name !== "postgres") return; // SQLite: one writer at a time, nothing can interleave.
    const a = (await createCompany(s.store.db, { name: "A" })).id;
    for (let i = 0; i < 5; i++) await acceptCall(s.store.db, { companyId: a, intake: "api", fields: {} });
    const input = (w: string) => ({ workerId: w, leaseMs: 60_000, now: new Date(), companyMaxInflight: 2 });
    let second: Promise<unknown> | undefined;
    let secondDone = false;
    await s.store.db.transaction().execute(async (trx) => {
      expect(await claimJob(trx, input("t1"))).toBeDefined();
      expect(await claimJob(trx, input("t2"))).toBeDefined();
      // Another connection claims while those two are uncommitted ...
      second = claimJob(s.store.db, input("other")).finally(() => (secondDone = true));
      // ... and is either already answered or visibly waiting on the claim lock before this transaction commits.
      for (;;) {
        if (secondDone) break;
        const waiting = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`.execute(s.store.db);
        if (Number(waiting.rows[0].n) > 0) break;
        await new Promise((r) => setTimeout(r, 5));
      }
    });
    expect(await second).toBeUndefined();
    const running = await s.store.db.selectFrom("jobs").select("id").where("status", "=", "running").execute();
    expect(running).toHaveLength(2);
  });
});
