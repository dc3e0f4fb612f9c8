import { createHash } from "node:crypto";
import { sql } from "kysely";
import { AppError } from "../errors.js";
import type { Db, DbOrTx } from "./db.js";
import type { Database } from "./schema.js";

/**
 * Moving an installation from its SQLite file to PostgreSQL: every table in
 * foreign-key order, ids kept, then each table read back on both sides and
 * compared by row count and a SHA-256 over its rows in key order. The whole
 * copy is one transaction on the target: a mismatch or an error leaves the
 * target as it was. The source is read inside one transaction (SQLite takes its
 * write lock), so the copy is one consistent state even if a process writes.
 */
export const COPIED_TABLES = [
  "companies",
  "api_keys",
  "users",
  "sessions",
  "calls",
  "jobs",
  "events",
  "reports",
  "call_history",
  "transcripts",
  // After reports and transcripts: their insert triggers have made the rows; the copy then sets every column.
  "call_console",
  "alert_reviews",
  "webhook_endpoints",
  "webhook_deliveries",
  "webhook_attempts",
  "webhook_fanout_cursor",
  "webhook_fanout_queue",
  "audit_log",
] as const satisfies readonly (keyof Database)[];

/** Tables copy-data leaves out on purpose, matched by name, each with why. */
export const SKIPPED_TABLES: readonly { name: RegExp; why: string }[] = [
  { name: /^kysely_migration(_lock)?$/, why: "migration bookkeeping: the target records its own migrations" },
  { name: /^transcript_search(_\w+)?$/, why: "the transcript search index: rebuilt on the target by its triggers as transcripts are copied" },
];

type Table = (typeof COPIED_TABLES)[number];

/** The key rows are ordered by for the checksum (and the copy). */
const KEY: Record<Table, string> = {
  companies: "id",
  api_keys: "id",
  users: "id",
  sessions: "id",
  call_console: "call_id",
  alert_reviews: "id",
  calls: "id",
  jobs: "id",
  events: "id",
  reports: "id",
  call_history: "id",
  transcripts: "id",
  webhook_endpoints: "id",
  webhook_deliveries: "id",
  webhook_attempts: "id",
  webhook_fanout_cursor: "name",
  webhook_fanout_queue: "event_row_id",
  audit_log: "id",
};

const BATCH = 500;

export interface TableSummary {
  table: Table;
  rows: number;
  sha256: string;
}

async function tableRows(db: DbOrTx, table: Table, after: unknown, limit: number): Promise<Record<string, unknown>[]> {
  let q = db.selectFrom(table as never).selectAll() as any;
  if (after !== undefined) q = q.where(KEY[table], ">", after);
  return q.orderBy(KEY[table]).limit(limit).execute();
}

/** Row count and SHA-256 over the rows in key order, each as JSON with its columns sorted by name. */
export async function tableChecksum(db: DbOrTx, table: Table): Promise<TableSummary> {
  const hash = createHash("sha256");
  let rows = 0;
  let after: unknown;
  for (;;) {
    const batch = await tableRows(db, table, after, 2_000);
    for (const r of batch) {
      hash.update(
        JSON.stringify(
          Object.keys(r)
            .sort()
            .map((k) => [k, r[k]]),
        ),
      );
      hash.update("\n");
    }
    rows += batch.length;
    if (batch.length < 2_000) break;
    after = batch[batch.length - 1][KEY[table]];
  }
  return { table, rows, sha256: hash.digest("hex") };
}

export async function copyData(source: Db, target: Db): Promise<TableSummary[]> {
  for (const table of ["companies", "calls", "events", "audit_log"] as const) {
    const any = await (target.selectFrom(table as never).select(sql`1`.as("one")) as any).limit(1).executeTakeFirst();
    if (any) throw new AppError("invalid_config", `the target database already holds ${table}; copy-data only fills an empty (freshly migrated) database`);
  }
  return source.transaction().execute((src) =>
    target.transaction().execute(async (dst) => {
      // Migration 007 seeds the fan-out cursor; the source's row replaces it.
      await dst.deleteFrom("webhook_fanout_cursor").execute();
      for (const table of COPIED_TABLES) {
        let after: unknown;
        for (;;) {
          const batch = await tableRows(src, table, after, BATCH);
          if (batch.length > 0) await insertBatch(dst, table, batch);
          if (batch.length < BATCH) break;
          after = batch[batch.length - 1][KEY[table]];
        }
        if (KEY[table] === "id") {
          // Identity columns continue after the copied ids.
          await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), COALESCE((SELECT max(id) FROM ${sql.table(table)}), 0) + 1, false)`.execute(dst);
        }
      }
      const summaries: TableSummary[] = [];
      for (const table of COPIED_TABLES) {
        const [a, b] = [await tableChecksum(src, table), await tableChecksum(dst, table)];
        if (a.rows !== b.rows || a.sha256 !== b.sha256) {
          throw new AppError(
            "internal_error",
            `copy of ${table} does not match the source (${a.rows} rows ${a.sha256.slice(0, 12)} vs ${b.rows} rows ${b.sha256.slice(0, 12)}); nothing was written`,
          );
        }
        summaries.push(b);
      }
      return summaries;
    }),
  );
}

async function insertBatch(dst: DbOrTx, table: Table, batch: Record<string, unknown>[]): Promise<void> {
  const insert = (dst.insertInto(table as never) as any).values(batch);
  if (table !== "call_console") return insert.execute();
  // Rows the triggers already made for the copied reports and transcripts take the source's values, review state included.
  const columns = Object.keys(batch[0]).filter((c) => c !== "call_id");
  return insert.onConflict((oc: any) => oc.column("call_id").doUpdateSet(Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)])))).execute();
}
