import { sql } from "kysely";
import type { Db } from "./db.js";
import { isPostgres } from "./dialect.js";

/**
 * SQLite-only, kept here behind one function: after an erasure, the deleted
 * content must leave the files too. The driver turns `secure_delete` on for
 * every connection, so freed cells and pages are already zeroed in the
 * database; what remains is the old page images in the write-ahead log. A
 * TRUNCATE checkpoint copies the zeroed pages into the database and cuts the
 * log to zero bytes. It waits (busy_timeout) for readers of older snapshots;
 * if one still holds on, it is retried a few times. Returns whether the log
 * was emptied.
 */
export async function scrubWriteAheadLog(db: Db, attempts = 5): Promise<boolean> {
  if (isPostgres(db)) return vacuumErasedTables(db);
  for (let i = 0; i < attempts; i++) {
    const r = await sql<{ busy: number; log: number; checkpointed: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
    const row = r.rows[0];
    if (row && Number(row.busy) === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 100 * (i + 1)));
  }
  return false;
}

/** The tables an erasure deletes from (store/erasure.ts). */
const ERASED_TABLES = ["calls", "transcripts", "reports", "call_history", "jobs", "events", "webhook_deliveries", "webhook_attempts"];

/**
 * PostgreSQL has no secure_delete: a deleted row stays in its page as a dead
 * tuple until VACUUM frees it, and its bytes stay in the table file until
 * new rows overwrite the space, and in WAL segments until they are recycled.
 * VACUUM here makes the space reusable at once and removes the index entries;
 * it is a weaker guarantee than SQLite's zeroing (docs/lifecycle.md). VACUUM
 * cannot run inside a transaction, so each runs on its own pooled connection.
 */
async function vacuumErasedTables(db: Db): Promise<boolean> {
  for (const t of ERASED_TABLES) await sql.raw(`VACUUM ${t}`).execute(db);
  return true;
}
