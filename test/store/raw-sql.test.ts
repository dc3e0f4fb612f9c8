import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { INSERT_FIRST_JOB, insertFirstJob } from "../../src/queue/add-job.js";
import { INSERT_ACCEPTED_HISTORY, insertAcceptedHistory, insertCallUnlessDuplicate } from "../../src/store/calls.js";
import { servicesWithCompany, type testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

/** Every "quoted" identifier of a raw statement: its table first, then its columns. */
function identifiers(statement: string): string[] {
  return [...statement.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]);
}

/**
 * The statements the hot intake path runs as plain SQL, outside Kysely's types:
 * each is checked against the migrated schema and against the row its typed
 * Kysely equivalent writes, so a renamed column fails here rather than in production.
 */
describe("raw SQL statements against the migrated schema", () => {
  let s: S;
  let companyId: number;
  beforeEach(async () => ({ s, companyId } = await servicesWithCompany()));
  afterEach(() => s.dispose());

  async function columnsOf(table: string): Promise<string[]> {
    const r = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(s.store.db);
    return r.rows.map((c) => c.name);
  }

  async function newCall(external: string) {
    const at = "2026-01-01T00:00:00.000Z";
    const call = await insertCallUnlessDuplicate(s.store.db, {
      company_id: companyId,
      external_call_id: external,
      source_system: "test",
      metadata: "{}",
      intake: "api",
      processing_status: "queued",
      report_status: "pending",
      priority: 0,
      created_at: at,
      updated_at: at,
    });
    return call!;
  }

  it.each([
    ["INSERT_FIRST_JOB", INSERT_FIRST_JOB],
    ["INSERT_ACCEPTED_HISTORY", INSERT_ACCEPTED_HISTORY],
  ])("%s names only an existing table and its columns", async (_name, statement) => {
    const [table, ...columns] = identifiers(statement);
    const known = await columnsOf(table);
    expect(known.length).toBeGreaterThan(0);
    expect(columns.filter((c) => !known.includes(c))).toEqual([]);
  });

  it("insertCallUnlessDuplicate returns the row a typed read returns, and nothing for a duplicate", async () => {
    const call = await newCall("raw-1");
    expect(call).toEqual(await s.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow());
    expect(await newCall("raw-1")).toBeUndefined();
  });

  it("insertAcceptedHistory writes the row its Kysely equivalent writes", async () => {
    const [a, b] = [await newCall("h-a"), await newCall("h-b")];
    const at = "2026-01-02T00:00:00.000Z";
    await s.store.db.transaction().execute((trx) => insertAcceptedHistory(trx, a.id, at));
    await s.store.db.insertInto("call_history").values({ call_id: b.id, from_status: null, to_status: "queued", reason: "accepted", at }).execute();
    const rows = await s.store.db.selectFrom("call_history").selectAll().where("call_id", "in", [a.id, b.id]).orderBy("call_id").execute();
    expect(rows.map(({ id: _id, call_id: _c, ...rest }) => rest)).toEqual([
      { from_status: null, to_status: "queued", reason: "accepted", at },
      { from_status: null, to_status: "queued", reason: "accepted", at },
    ]);
  });

  it("insertFirstJob writes the row its Kysely equivalent writes", async () => {
    const [a, b] = [await newCall("j-a"), await newCall("j-b")];
    const now = new Date("2026-01-03T00:00:00.000Z");
    const ts = now.toISOString();
    await s.store.db.transaction().execute((trx) => insertFirstJob(trx, { callId: a.id, priority: 10, pipeline: "live" }, now));
    await s.store.db
      .insertInto("jobs")
      .values({
        call_id: b.id,
        kind: "process_call",
        status: "queued",
        priority: 10,
        attempts: 0,
        max_attempts: (await s.store.db.selectFrom("jobs").select("max_attempts").where("call_id", "=", a.id).executeTakeFirstOrThrow()).max_attempts,
        run_at: ts,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: ts,
        updated_at: ts,
        pipeline: "live",
      })
      .execute();
    const rows = await s.store.db.selectFrom("jobs").selectAll().where("call_id", "in", [a.id, b.id]).orderBy("call_id").execute();
    expect(rows).toHaveLength(2);
    const [ra, rb] = rows.map(({ id: _id, call_id: _c, ...rest }) => rest);
    expect(ra).toEqual(rb);
    expect(ra).toMatchObject({ kind: "process_call", status: "queued", priority: 10, attempts: 0, run_at: ts, pipeline: "live", progress: null, stage: null });
  });
});
