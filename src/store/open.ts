import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { AppError } from "../errors.js";
import { openSqlite, type SqliteOptions } from "./driver.js";
import { migrateToLatest } from "./migrate.js";
import { isPostgresUrl, openPostgres, redactUrl } from "./postgres.js";
import { preparePrivateDatabase, PRIVATE_DIR_MODE, tightenMode } from "./private-files.js";
import type { StoreDialect } from "./dialect.js";
import type { Database } from "./schema.js";
import { makeDirs } from "../make-dirs.js";

export interface StoreOptions extends SqliteOptions {
  /** postgres://…: the store is that PostgreSQL database instead of the data dir's SQLite file. */
  databaseUrl?: string;
}

export interface Store {
  db: Kysely<Database>;
  driver: "better-sqlite3" | "bun:sqlite" | "pg";
  dialect: StoreDialect;
  /** The SQLite file, or the PostgreSQL URL with its password masked. */
  file: string;
  schemaVersion: string;
  /** Migrations this open applied (empty when the schema was already current). */
  migrated: string[];
  close(): Promise<void>;
}

/** Creates the data dir if needed, checks it is writable, opens the database and migrates it. */
export async function openStore(dataDir: string, opts: StoreOptions = {}): Promise<Store> {
  ensureWritableDir(dataDir);
  let db: Kysely<Database>;
  let driver: Store["driver"];
  let file: string;
  if (opts.databaseUrl !== undefined && opts.databaseUrl !== "") {
    if (!isPostgresUrl(opts.databaseUrl))
      throw new AppError("invalid_config", `--database-url must start with postgres:// or postgresql:// (got ${redactUrl(opts.databaseUrl)})`);
    file = redactUrl(opts.databaseUrl);
    db = await openPostgres(opts.databaseUrl);
    driver = "pg";
  } else {
    file = path.join(dataDir, "callreview.db");
    preparePrivateDatabase(file);
    ({ db, driver } = await openSqlite(file, opts));
  }
  try {
    const { schemaVersion, applied } = await migrateToLatest(db, file);
    let closed = false;
    return {
      db,
      driver,
      dialect: driver === "pg" ? "postgres" : "sqlite",
      file,
      schemaVersion,
      migrated: applied,
      async close() {
        if (closed) return;
        closed = true;
        await db.destroy();
      },
    };
  } catch (e) {
    await db.destroy();
    throw e;
  }
}

export function ensureWritableDir(dir: string, what = "data dir"): void {
  try {
    makeDirs(dir, PRIVATE_DIR_MODE);
    tightenMode(dir, PRIVATE_DIR_MODE);
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.R_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "error";
    throw new AppError("invalid_config", `${what} ${dir} is not writable (${code})`);
  }
}
