import { Kysely, type SqliteDatabase, type SqliteStatement } from "kysely";
import { isBun } from "../runtime.js";
import type { Database } from "./schema.js";
import { NATIVE_BUSY_TIMEOUT_MS, SplitSqliteDialect } from "./sqlite-connections.js";

/**
 * The only store file that branches on the runtime: better-sqlite3 under Node,
 * bun:sqlite inside the compiled executable (better-sqlite3 does not load in Bun).
 * Both are served by one dialect with a writer and a reader handle
 * (sqlite-connections.ts).
 */
function pragmas(opts: SqliteOptions): string[] {
  return [
    "PRAGMA journal_mode = WAL",
    // FULL: the WAL is synced at every commit, so an answered 201 survives a power loss; NORMAL syncs only at
    // checkpoints (a crash of the process loses nothing, a power loss can lose the last commits). docs/performance.md.
    `PRAGMA synchronous = ${opts.synchronous === "normal" ? "NORMAL" : "FULL"}`,
    "PRAGMA foreign_keys = ON",
    // Several processes (two `serve`, a CLI) may share one file. SQLite's own wait blocks the event loop, so it
    // is kept to a few ms; longer waits are asynchronous retries (sqlite-connections.ts).
    `PRAGMA busy_timeout = ${NATIVE_BUSY_TIMEOUT_MS}`,
    // Checkpoints every 10,000 WAL pages (~40 MiB) instead of SQLite's 1,000: each small commit appends whole
    // pages, so the default checkpointed every ~20 calls and its fsyncs were the largest single cost of the queue
    // (measured: docs/performance.md).
    "PRAGMA wal_autocheckpoint = 10000",
    // After a checkpoint the log is cut back to this size if it ever grew larger (a long reader held it).
    "PRAGMA journal_size_limit = 67108864",
    // Erasure (docs/lifecycle.md): deleted rows are overwritten with zeros, not just unlinked from the b-tree.
    "PRAGMA secure_delete = ON",
  ];
}

/** The reader handle only reads (reads outside transactions); it never takes the write lock. */
const READER_PRAGMAS = ["PRAGMA query_only = ON", `PRAGMA busy_timeout = ${NATIVE_BUSY_TIMEOUT_MS}`];

export interface SqliteOptions {
  /** How long a statement waits (asynchronously) for another process's lock before failing with database_busy. */
  busyTimeoutMs?: number;
  synchronous?: "full" | "normal";
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

export interface OpenedDatabase {
  db: Kysely<Database>;
  driver: "better-sqlite3" | "bun:sqlite";
}

export async function openSqlite(file: string, opts: SqliteOptions = {}): Promise<OpenedDatabase> {
  const open = isBun ? openBun : openBetterSqlite;
  const writer = withStatementCache(await open(file, pragmas(opts)));
  let reader: SqliteDatabase | null = null;
  if (file !== ":memory:" && file !== "") {
    try {
      reader = withStatementCache(await open(file, READER_PRAGMAS));
    } catch (e) {
      writer.close();
      throw e;
    }
  }
  const db = new Kysely<Database>({ dialect: new SplitSqliteDialect({ writer, reader, busyTimeoutMs: opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS }) });
  return { db, driver: isBun ? "bun:sqlite" : "better-sqlite3" };
}

async function openBetterSqlite(file: string, statements: string[]): Promise<SqliteDatabase> {
  const { default: BetterSqlite } = await import("better-sqlite3");
  const native = new BetterSqlite(file);
  for (const p of statements) native.exec(p);
  return native as unknown as SqliteDatabase;
}

/** bun:sqlite statements lack better-sqlite3's `reader` flag, which Kysely uses to pick all() or run(). */
async function openBun(file: string, statements: string[]): Promise<SqliteDatabase> {
  const { Database: BunDatabase } = await import("bun:sqlite");
  const native = new BunDatabase(file, { create: true, readwrite: true });
  for (const p of statements) native.exec(p);
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
