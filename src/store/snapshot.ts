import { AppError } from "../errors.js";
import { isPostgres } from "./dialect.js";
import { sql } from "kysely";
import type { Db } from "./db.js";

/**
 * SQLite-only, behind functions a PostgreSQL store replaces (pg_dump there).
 * VACUUM INTO writes a consistent copy of one read snapshot to a new file
 * while other connections keep writing; it works the same on better-sqlite3
 * and bun:sqlite because it is plain SQL.
 */
export async function snapshotInto(db: Db, file: string): Promise<void> {
  if (isPostgres(db))
    throw new AppError(
      "invalid_config",
      "backup copies the SQLite file; a PostgreSQL store is backed up with pg_dump (and the shared audio dir with any file copy), see docs/lifecycle.md",
    );
  await sql.raw(`VACUUM INTO '${file.replace(/'/g, "''")}'`).execute(db);
}

/** SQLite's own structural check of a database file; "ok" or the first problems. */
export async function quickCheck(db: Db): Promise<string> {
  const r = await sql<Record<string, string>>`PRAGMA quick_check`.execute(db);
  return r.rows.map((row) => Object.values(row)[0]).join("; ");
}
