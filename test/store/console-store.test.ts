import path from "node:path";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { toMatchQuery } from "../../src/console/search-sqlite.js";
import { openSqlite } from "../../src/store/driver.js";
import { listConsoleCalls } from "../../src/store/console-calls.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { tempDir } from "../helpers/services.js";

const NOW = "2030-01-01T00:00:00.000Z";
const segs = (text: string) => JSON.stringify([{ t_start: 0, t_end: 2, speaker: "rep", text }]);

describe("migration 011_console on this driver", () => {
  it("backfills the search index and alert counts of existing calls; triggers follow inserts, updates and deletes", async () => {
    const { dir, cleanup } = tempDir();
    const { db } = await openSqlite(path.join(dir, "db.sqlite"));
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
      const to010 = await migrator.migrateTo("010_lifecycle");
      expect(to010.error).toBeUndefined();
      await db.insertInto("companies").values({ name: "Acme", created_at: NOW, updated_at: NOW }).execute();
      const call = (over: Record<string, unknown> = {}) =>
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
            ...over,
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
        .values({
          call_id: old.id,
          version: 1,
          analyzer: "rules",
          report: JSON.stringify({ compliance_alerts: [{ type: "a" }, { type: "b" }] }),
          created_at: NOW,
        })
        .execute();

      await migrateToLatest(db, "db.sqlite");
      const match = (q: string) => listConsoleCalls(db, 1, { match: toMatchQuery(q) }, { limit: 10, offset: 0 });
      expect((await match("zeppelin")).rows.map((r) => r.id)).toEqual([old.id]);
      expect((await match("zeppe")).total).toBe(1);
      const cc = await db.selectFrom("call_console").selectAll().where("call_id", "=", old.id).executeTakeFirstOrThrow();
      expect(cc).toMatchObject({ alert_count: 2, talk_ratio: 0.6, review_state: "unreviewed" });

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
      const left = await sql<{ n: number }>`SELECT count(*) AS n FROM transcript_search`.execute(db);
      expect(Number(left.rows[0].n)).toBe(1);
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
