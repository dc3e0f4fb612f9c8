import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acceptBatches, acceptCall } from "../../src/intake/accept-call.js";
import { databasePath } from "../../src/config.js";
import { createGroupCommit } from "../../src/store/group-commit.js";
import { servicesWithCompany, type testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

describe("group commit of accepted calls", () => {
  let s: S;
  let companyId: number;
  beforeEach(async () => ({ s, companyId } = await servicesWithCompany()));
  afterEach(() => s.dispose());

  const count = async (table: "calls" | "jobs" | "events" | "call_history") =>
    Number(
      (
        await s.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("concurrent submissions share one commit and each gets its own call", async () => {
    const before = acceptBatches(s.store.db);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: `c-${i}`, customer_name: `N${i}` } }),
      ),
    );
    expect(acceptBatches(s.store.db) - before).toBe(1);
    expect(new Set(results.map((r) => r.call.id)).size).toBe(30);
    results.forEach((r, i) => {
      expect(r.duplicate).toBe(false);
      expect(r.call.external_call_id).toBe(`c-${i}`);
      expect(r.call.customer_name).toBe(`N${i}`);
    });
    for (const r of results) {
      const job = await s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", r.call.id).execute();
      expect(job).toHaveLength(1);
      const ev = await s.store.db.selectFrom("events").selectAll().where("call_id", "=", r.call.id).execute();
      expect(ev.map((e) => e.type)).toEqual(["call.received"]);
      expect(JSON.parse(ev[0].payload).data.external_call_id).toBe(r.call.external_call_id);
    }
    expect(await count("call_history")).toBe(30);
  });

  it("a duplicate inside one batch gets the call of its batch-mate", async () => {
    const [a, b, c] = await Promise.all([
      acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "dup" } }),
      acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "other" } }),
      acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "dup" } }),
    ]);
    expect(a.duplicate).toBe(false);
    expect(b.duplicate).toBe(false);
    expect(c.duplicate).toBe(true);
    expect(c.call.id).toBe(a.call.id);
    expect(await count("calls")).toBe(2);
    expect(await count("jobs")).toBe(2);
    expect(await count("events")).toBe(2);
  });

  it("a failing submission fails alone; its batch-mates commit and nothing of it remains", async () => {
    const before = acceptBatches(s.store.db);
    const settled = await Promise.allSettled([
      acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "ok-1" } }),
      // No such company: the foreign key refuses the call row.
      acceptCall(s.store.db, { companyId: 987654, intake: "api", fields: { external_call_id: "bad" } }),
      acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "ok-2" } }),
    ]);
    expect(acceptBatches(s.store.db) - before).toBe(1);
    expect(settled.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/i);
    const ids = (await s.store.db.selectFrom("calls").select("external_call_id").orderBy("id").execute()).map((r) => r.external_call_id);
    expect(ids).toEqual(["ok-1", "ok-2"]);
    expect(await count("jobs")).toBe(2);
    expect(await count("events")).toBe(2);
    expect(await count("call_history")).toBe(2);
  });

  it("resolves only after the commit: a fresh connection sees the call once the promise settles", async () => {
    const { openSqlite } = await import("../../src/store/driver.js");
    const results = await Promise.all([1, 2, 3].map((i) => acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: `v-${i}` } })));
    const other = await openSqlite(databasePath(s.config));
    try {
      for (const r of results) {
        const row = await other.db.selectFrom("jobs").select("id").where("call_id", "=", r.call.id).executeTakeFirst();
        expect(row).toBeDefined();
      }
    } finally {
      await other.db.destroy();
    }
  });

  it("if the batch transaction fails, every unit is retried on its own", async () => {
    let attempts = 0;
    // A unit that makes SQLite abort the whole transaction (ROLLBACK inside it), so ROLLBACK TO fails and the batch is retried one by one.
    const gc = createGroupCommit(s.store.db, async (trx, n: number) => {
      attempts++;
      if (n === 2 && attempts <= 3) {
        await sqlRaw(trx, "rollback");
        throw new Error("aborted");
      }
      await trx
        .insertInto("companies")
        .values({ name: `co-${n}`, created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" } as never)
        .execute();
      return n * 10;
    });
    const settled = await Promise.allSettled([1, 2, 3].map((n) => gc.submit(n)));
    expect(settled.map((r) => (r.status === "fulfilled" ? r.value : "rejected"))).toEqual([10, 20, 30]);
    const names = (await s.store.db.selectFrom("companies").select("name").where("name", "like", "co-%").orderBy("id").execute()).map((r) => r.name);
    expect(names).toEqual(["co-1", "co-2", "co-3"]);
  });
});

async function sqlRaw(trx: Parameters<Parameters<typeof createGroupCommit>[1]>[0], text: string) {
  const { CompiledQuery } = await import("kysely");
  await trx.executeQuery(CompiledQuery.raw(text));
}
