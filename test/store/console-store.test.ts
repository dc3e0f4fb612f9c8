import path from "node:path";
import { type Kysely, Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { toTsQuery } from "../../src/store/search-postgres.js";
import { toMatchQuery } from "../../src/store/search-sqlite.js";
import { listConsoleCalls } from "../../src/store/console-calls.js";
import { openSqlite } from "../../src/store/driver.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { openPostgres } from "../../src/store/postgres.js";
import type { Database } from "../../src/store/schema.js";
import { createDatabase, pgAdminUrl } from "../helpers/postgres.js";
import { tempDir } from "../helpers/services.js";

const NOW = "2030-01-01T00:00:00.000Z";
const segs = (text: string) => JSON.stringify([{ t_start: 0, t_end: 2, speaker: "rep", text }]);

/** A store at migration 010 holding one company and one call with a transcript and a report. */
async function storeBefore011(db: Kysely<Database>) {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  expect((await migrator.migrateTo("010_lifecycle")).error).toBeUndefined();
  await db.insertInto("companies").values({ name: "Acme", created_at: NOW, updated_at: NOW }).execute();
  const call = () =>
    db
      .insertInto("calls")
      .values({
        company_id: 1,
        source_system: "api",
        metadata: "{}",
        intake: "api",
        processing_status: "complete",
        report_status: "ready",
        priority: 0,
        created_at: NOW,
        updated_at: NOW,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  const old = await call();
  await db
    .insertInto("transcripts")
    .values({
      call_id: old.id,
      source: "imported",
      language: "en",
      model: null,
      segments: segs("The zeppelin fund guarantees nothing."),
      metrics: JSON.stringify({ talk_ratio: 0.6 }),
      created_at: NOW,
    })
    .execute();
  await db
    .insertInto("reports")
    .values({ call_id: old.id, version: 1, analyzer: "rules", report: JSON.stringify({ compliance_alerts: [{ type: "a" }, { type: "b" }] }), created_at: NOW })
    .execute();

  return { old, call };
}

/**
 * Migration 011 on a store holding calls from before it: the search index and
 * the per-call console columns are backfilled, then follow every insert,
 * update (redaction) and delete (retention, erasure) through triggers. The same
 * flow on SQLite (FTS5) and on PostgreSQL (tsvector, PL/pgSQL triggers).
 */
async function migrationFollowsTranscripts(db: Kysely<Database>, file: string): Promise<(q: string) => ReturnType<typeof listConsoleCalls>> {
  const { old, call } = await storeBefore011(db);
  await migrateToLatest(db, file);
  const match = (q: string) => listConsoleCalls(db, 1, { match: toMatchQuery(q) }, { limit: 10, offset: 0 });
  expect((await match("zeppelin")).rows.map((r) => r.id)).toEqual([old.id]);
  expect((await match("zeppe")).total).toBe(1);
  const cc = await db.selectFrom("call_console").selectAll().where("call_id", "=", old.id).executeTakeFirstOrThrow();
  expect(cc).toMatchObject({ alert_count: 2, review_state: "unreviewed" });
  expect(cc.talk_ratio).toBeCloseTo(0.6, 5);

  // New transcript of a new call: indexed by the trigger. An update (redaction) re-indexes.
  const fresh = await call();
  const t = await db
    .insertInto("transcripts")
    .values({
      call_id: fresh.id,
      source: "whisper",
      language: "en",
      model: null,
      segments: segs("My card is 4111 1111 1111 1111"),
      metrics: null,
      created_at: NOW,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  expect((await match("4111")).rows.map((r) => r.id)).toEqual([fresh.id]);
  await db
    .updateTable("transcripts")
    .set({ segments: segs("My card is [CARD]") })
    .where("id", "=", t.id)
    .execute();
  expect((await match("4111")).total).toBe(0);
  expect((await match("card")).rows.map((r) => r.id)).toEqual([fresh.id]);
  // Delete (retention, erasure): gone from the index.
  await db.deleteFrom("transcripts").where("call_id", "=", old.id).execute();
  expect((await match("zeppelin")).total).toBe(0);
  const left = await sql<{ n: number | string }>`SELECT count(*) AS n FROM transcript_search`.execute(db);
  expect(Number(left.rows[0].n)).toBe(1);
  return match;
}

describe("migration 011_console on SQLite (this driver)", () => {
  it("backfills the search index and alert counts of existing calls; triggers follow inserts, updates and deletes", async () => {
    const { dir, cleanup } = tempDir();
    const { db } = await openSqlite(path.join(dir, "db.sqlite"));
    try {
      const match = await migrationFollowsTranscripts(db, "db.sqlite");
      // Query syntax typed by a user is plain text, never FTS5 syntax.
      expect(toMatchQuery('card" OR NEAR(x')).toBe('"card" "OR" "NEAR" "x"*');
      expect(toMatchQuery("  -- ")).toBeNull();
      expect((await match('card" OR NEAR(x')).total).toBe(0);
    } finally {
      await db.destroy();
      cleanup();
    }
  });
});

const admin = pgAdminUrl();
if (!admin) console.warn("\n!!!!!!!! console-store.test.ts: no PostgreSQL server for this run: the console's PostgreSQL search was NOT checked. !!!!!!!!\n");

describe.skipIf(!admin)("migration 011_console on PostgreSQL", () => {
  it("the same backfill and triggers from a tsvector index and PL/pgSQL triggers", async () => {
    const db = await openPostgres(await createDatabase(admin!));
    try {
      const match = await migrationFollowsTranscripts(db, "postgres");
      // Typed text is never tsquery syntax.
      expect(toTsQuery(toMatchQuery("card & !x | (y")!)).toBe("card & x & y:*");
      expect((await match("card & !x | (y")).total).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
