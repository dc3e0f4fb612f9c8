import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databasePath } from "../../src/config.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { onJobsAdded } from "../../src/queue/jobs-added.js";
import { openSqlite } from "../../src/store/driver.js";
import { openPostgres } from "../../src/store/postgres.js";
import { storeKinds, type StoreKind } from "../helpers/postgres.js";
import { servicesWithCompany, testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

describe("jobs-added signal (wakes this process's idle workers)", () => {
  let s: S;
  let companyId: number;
  beforeEach(async () => ({ s, companyId } = await servicesWithCompany()));
  afterEach(() => s.dispose());

  it("fires after the commit: another connection already sees the job", async () => {
    const other = await openSqlite(databasePath(s.config));
    const seen: number[] = [];
    const off = onJobsAdded(s.store.db, () => {
      seen.push(-1);
    });
    try {
      const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "w-1" } });
      expect(seen).toHaveLength(1);
      const job = await other.db.selectFrom("jobs").select(["call_id", "status"]).where("call_id", "=", call.id).executeTakeFirst();
      expect(job).toEqual({ call_id: call.id, status: "queued" });
    } finally {
      off();
      await other.db.destroy();
    }
  });

  it("does not fire for a duplicate, and not after unsubscribing", async () => {
    let n = 0;
    const off = onJobsAdded(s.store.db, () => n++);
    await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "d" } });
    await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "d" } });
    expect(n).toBe(1);
    off();
    await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "e" } });
    expect(n).toBe(1);
  });

  it("is per database: another store's listener hears nothing", async () => {
    const t = await testServices();
    try {
      let n = 0;
      const off = onJobsAdded(t.store.db, () => n++);
      await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
      expect(n).toBe(0);
      off();
    } finally {
      await t.dispose();
    }
  });
});

const pgKinds = storeKinds().filter((k) => k.name === "postgres");

describe.skipIf(pgKinds.length === 0).each(pgKinds)("jobs-added across processes on $name (LISTEN/NOTIFY)", (kind: StoreKind) => {
  it("a job committed through one pool wakes a listener on another pool of the same database", async () => {
    const { s, companyId } = await servicesWithCompany({ databaseUrl: await kind.freshDatabaseUrl() });
    // A second store on the same database: what another process or machine has.
    const other = await openPostgres(s.config.databaseUrl!);
    let wakes = 0;
    let next: (() => void) | undefined;
    const off = onJobsAdded(other, () => {
      wakes++;
      next?.();
    });
    const woken = () => new Promise<void>((r) => (next = r));
    try {
      // The first wake-up comes once LISTEN is in place (it covers jobs committed before).
      await woken();
      const before = wakes;
      const wake = woken();
      await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
      await wake;
      expect(wakes).toBe(before + 1);
    } finally {
      off();
      await other.destroy();
      await s.dispose();
    }
  });
});
