import { CompiledQuery, Kysely, SqliteDialect, type DatabaseConnection, type Driver, type SqliteDatabase, type SqliteStatement } from "kysely";
import { isBun } from "../runtime.js";
import type { Database } from "./schema.js";

/**
 * The only store file that branches on the runtime: better-sqlite3 under Node,
 * bun:sqlite inside the compiled executable (better-sqlite3 does not load in Bun).
 * Both are wrapped in Kysely's SqliteDialect.
 */
const PRAGMAS = [
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
  "PRAGMA foreign_keys = ON",
  // Several processes (two `serve`, a CLI) may share one file: wait instead of failing on a lock.
  "PRAGMA busy_timeout = 10000",
  // Checkpoints (the only fsyncs under synchronous=NORMAL) every 10,000 WAL pages (~40 MiB) instead
  // of SQLite's 1,000: each small commit appends whole pages, so the default checkpointed every ~20
  // calls and its fsyncs were the largest single cost of the queue (measured: docs/performance.md).
  "PRAGMA wal_autocheckpoint = 10000",
  // After a checkpoint the log is cut back to this size if it ever grew larger (a long reader held it).
  "PRAGMA journal_size_limit = 67108864",
  // Erasure (docs/lifecycle.md): deleted rows are overwritten with zeros, not just unlinked from the b-tree.
  "PRAGMA secure_delete = ON",
];

export interface OpenedDatabase {
  db: Kysely<Database>;
  driver: "better-sqlite3" | "bun:sqlite";
}

export async function openSqlite(file: string): Promise<OpenedDatabase> {
  const database = withStatementCache(isBun ? await openBun(file) : await openBetterSqlite(file));
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database }) });
  return { db, driver: isBun ? "bun:sqlite" : "better-sqlite3" };
}

async function openBetterSqlite(file: string): Promise<SqliteDatabase> {
  const { default: BetterSqlite } = await import("better-sqlite3");
  const native = new BetterSqlite(file);
  for (const p of PRAGMAS) native.exec(p);
  return native as unknown as SqliteDatabase;
}

/** bun:sqlite statements lack better-sqlite3's `reader` flag, which Kysely uses to pick all() or run(). */
async function openBun(file: string): Promise<SqliteDatabase> {
  const { Database: BunDatabase } = await import("bun:sqlite");
  const native = new BunDatabase(file, { create: true, readwrite: true });
  for (const p of PRAGMAS) native.exec(p);
  return {
    close: () => native.close(),
    prepare(sql: string): SqliteStatement {
      const stmt = native.prepare(sql);
      const reader = stmt.columnNames.length > 0;
      return {
        reader,
        all: (params: ReadonlyArray<unknown>) => stmt.all(...(params as unknown[])),
        run: (params: ReadonlyArray<unknown>) => {
          const r = stmt.run(...(params as unknown[]));
          return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
        },
        iterate: (params: ReadonlyArray<unknown>) => stmt.iterate(...(params as unknown[])),
      } as SqliteStatement;
    },
  } as SqliteDatabase;
}

/** Distinct SQL texts kept prepared; the application has a few dozen, so this never evicts in practice. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query anew; preparing costs more than running the
 * small indexed queries of a request. Both drivers' statements are reusable
 * (parameters are bound per call), so they are kept per SQL text. Evicts the
 * oldest entry when full.
 */
function withStatementCache(database: SqliteDatabase): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      return database.close();
    },
    prepare(sql: string): SqliteStatement {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = database.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  } as SqliteDatabase;
}

/**
 * Transactions start with BEGIN IMMEDIATE: they take the write lock up front
 * (waiting up to busy_timeout), so a transaction that reads then writes cannot
 * fail with SQLITE_BUSY when another process committed in between.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}
