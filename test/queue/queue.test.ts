import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acceptCall } from "../../src/intake/accept-call.js";
import { backoffMs, MAX_BACKOFF_MS } from "../../src/queue/backoff.js";
import { claimJob } from "../../src/queue/claim-job.js";
import { completeJob } from "../../src/queue/complete-job.js";
import { extendLease } from "../../src/queue/extend-lease.js";
import { reclaimExpiredJobs } from "../../src/queue/reclaim-expired.js";
import { releaseJob } from "../../src/queue/release-job.js";
import { openSqlite } from "../../src/store/driver.js";
import { openPostgres } from "../../src/store/postgres.js";
import { storeKinds, type StoreKind } from "../helpers/postgres.js";
import { servicesWithCompany, type testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

describe.each(storeKinds())("queue on $name", (kind: StoreKind) => {
  let s: S;
  let companyId: number;
  beforeEach(async () => ({ s, companyId } = await servicesWithCompany({ databaseUrl: await kind.freshDatabaseUrl() })));
  afterEach(() => s.dispose());

  const later = () => new Date(Date.now() + 1000);

  it("parallel claimers never share a job", async () => {
    for (let i = 0; i < 60; i++) await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const claims = await Promise.all(Array.from({ length: 100 }, (_, i) => claimJob(s.store.db, { workerId: `w${i}`, leaseMs: 60_000, now: later() })));
    const got = claims.filter((j) => j !== undefined);
    expect(got).toHaveLength(60);
    expect(new Set(got.map((j) => j!.id)).size).toBe(60);
    const rows = await s.store.db.selectFrom("jobs").selectAll().execute();
    for (const r of rows) expect(got.find((j) => j!.id === r.id)!.locked_by).toBe(r.locked_by);
  });

  it("two separate connections on one database never take the same job", async () => {
    for (let i = 0; i < 80; i++) await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const other = s.config.databaseUrl ? { db: await openPostgres(s.config.databaseUrl) } : await openSqlite(s.store.file);
    try {
      const taken: number[] = [];
      const worker = async (db: typeof s.store.db, name: string) => {
        for (;;) {
          const j = await claimJob(db, { workerId: name, leaseMs: 60_000, now: later() });
          if (!j) return;
          taken.push(j.id);
          await completeJob(db, { jobId: j.id, workerId: name, now: later() });
        }
      };
      await Promise.all([worker(s.store.db, "a1"), worker(other.db, "b1"), worker(s.store.db, "a2"), worker(other.db, "b2")]);
      expect(taken).toHaveLength(80);
      expect(new Set(taken).size).toBe(80);
    } finally {
      await other.db.destroy();
    }
  });

  it("claims high-value jobs first, then by run_at and id", async () => {
    const a = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const b = await acceptCall(s.store.db, { companyId, intake: "api", fields: { metadata: { high_value_opportunity: true } } });
    const c = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const order = [];
    for (;;) {
      const j = await claimJob(s.store.db, { workerId: "w", leaseMs: 60_000, now: later() });
      if (!j) break;
      order.push(j.call_id);
    }
    expect(order).toEqual([b.call.id, a.call.id, c.call.id]);
  });

  it("an expired lease hands the job back; the old holder can no longer heartbeat or complete it", async () => {
    await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const t0 = later();
    const j = (await claimJob(s.store.db, { workerId: "dead", leaseMs: 10_000, now: t0 }))!;
    expect(await claimJob(s.store.db, { workerId: "other", leaseMs: 10_000, now: t0 })).toBeUndefined();
    expect(await reclaimExpiredJobs(s.store.db, new Date(t0.getTime() + 9_000))).toBe(0);
    expect(await reclaimExpiredJobs(s.store.db, new Date(t0.getTime() + 11_000))).toBe(1);
    const again = (await claimJob(s.store.db, { workerId: "other", leaseMs: 10_000, now: new Date(t0.getTime() + 11_000) }))!;
    expect(again.id).toBe(j.id);
    expect(again.attempts).toBe(2);
    expect(await extendLease(s.store.db, { jobId: j.id, workerId: "dead", leaseMs: 10_000, now: t0 })).toBe(false);
    expect(await completeJob(s.store.db, { jobId: j.id, workerId: "dead", now: t0 })).toBe(false);
    expect(await completeJob(s.store.db, { jobId: j.id, workerId: "other", now: t0 })).toBe(true);
  });

  it("a heartbeat keeps the lease; release hands the job back without charging the attempt", async () => {
    await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const t0 = later();
    const j = (await claimJob(s.store.db, { workerId: "w", leaseMs: 10_000, now: t0 }))!;
    expect(await extendLease(s.store.db, { jobId: j.id, workerId: "w", leaseMs: 10_000, now: new Date(t0.getTime() + 8_000) })).toBe(true);
    expect(await reclaimExpiredJobs(s.store.db, new Date(t0.getTime() + 15_000))).toBe(0);
    expect(await releaseJob(s.store.db, { jobId: j.id, workerId: "w", now: t0 })).toBe(true);
    const row = await s.store.db.selectFrom("jobs").selectAll().where("id", "=", j.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "queued", attempts: 0, locked_by: null });
  });

  it("backoff doubles and is capped", () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 5000))).toEqual([5000, 10000, 20000, 40000]);
    expect(backoffMs(30, 5000)).toBe(MAX_BACKOFF_MS);
  });
});
