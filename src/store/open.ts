import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { AppError } from "../errors.js";
import { openSqlite, type SqliteOptions } from "./driver.js";
import { migrateToLatest } from "./migrate.js";
import { preparePrivateDatabase, PRIVATE_DIR_MODE, tightenMode } from "./private-files.js";
import type { Database } from "./schema.js";
import { makeDirs } from "../make-dirs.js";

export interface Store {
  db: Kysely<Database>;
  driver: "better-sqlite3" | "bun:sqlite";
  file: string;
  schemaVersion: string;
  close(): Promise<void>;
}

/** Creates the data dir if needed, checks it is writable, opens the database and migrates it. */
export async function openStore(dataDir: string, opts: SqliteOptions = {}): Promise<Store> {
  ensureWritableDir(dataDir);
  const file = path.join(dataDir, "callreview.db");
  preparePrivateDatabase(file);
  const { db, driver } = await openSqlite(file, opts);
  try {
    const schemaVersion = await migrateToLatest(db, file);
    let closed = false;
    return {
      db,
      driver,
      file,
      schemaVersion,
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

export function ensureWritableDir(dir: string): void {
  try {
    makeDirs(dir, PRIVATE_DIR_MODE);
    tightenMode(dir, PRIVATE_DIR_MODE);
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.R_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "error";
    throw new AppError("invalid_config", `data dir ${dir} is not writable (${code})`);
  }
}
