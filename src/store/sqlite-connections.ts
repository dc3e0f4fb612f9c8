import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type SqliteDatabase,
} from "kysely";
import { AppError } from "../errors.js";

/**
 * The SQLite drivers are synchronous: a statement waiting for another
 * process's write lock inside SQLite's busy handler blocks the whole event
 * loop (every request, /healthz included). So:
 * - the native busy timeout is a few milliseconds, and a statement that still
 *   finds the database locked is retried after an asynchronous pause, until
 *   `busyTimeoutMs` has passed; then it fails with `database_busy` (503);
 * - reads outside a transaction go to a second, read-only handle: under WAL a
 *   reader never waits for a writer, so reads keep answering while a write
 *   waits for the lock (they would otherwise queue behind it on the one
 *   handle). Reads inside a transaction stay on the writer, so a transaction
 *   sees its own writes.
 * Statements that fail with SQLITE_BUSY had no effect, so retrying them is safe;
 * transactions start with BEGIN IMMEDIATE, which takes the write lock up front,
 * so no statement after it can meet a lock held by another process.
 */
export interface SplitSqliteOptions {
  writer: SqliteDatabase;
  /** Null: reads use the writer too (an in-memory database has no second handle). */
  reader: SqliteDatabase | null;
  busyTimeoutMs: number;
}

/** Short enough that a blocked statement holds the event loop only briefly; long enough to ride out another process's commit. */
export const NATIVE_BUSY_TIMEOUT_MS = 10;
const MAX_PAUSE_MS = 50;

export class SplitSqliteDialect implements Dialect {
  constructor(private readonly options: SplitSqliteOptions) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    return new SplitSqliteDriver(this.options);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

export function isBusyError(e: unknown): boolean {
  const err = e as { code?: unknown; errno?: unknown } | null;
  const code = typeof err?.code === "string" ? err.code : "";
  return code === "SQLITE_BUSY" || code === "SQLITE_BUSY_RECOVERY" || code === "SQLITE_BUSY_TIMEOUT" || (code === "" && err?.errno === 5);
}

/** Runs `run`, retrying it after short asynchronous pauses while the database is locked by someone else. */
export async function retryWhileBusy<T>(run: () => T, busyTimeoutMs: number): Promise<T> {
  const started = Date.now();
  let pause = 1;
  for (;;) {
    try {
      return run();
    } catch (e) {
      if (!isBusyError(e)) throw e;
      const waited = Date.now() - started;
      if (waited >= busyTimeoutMs) {
        throw new AppError("database_busy", `the database is locked by another process (waited ${waited} ms); retry shortly`, { cause: e });
      }
      await new Promise((r) => setTimeout(r, Math.min(pause, busyTimeoutMs - waited)));
      pause = Math.min(MAX_PAUSE_MS, pause * 2);
    }
  }
}

function execute(db: SqliteDatabase, query: CompiledQuery): QueryResult<unknown> {
  const stmt = db.prepare(query.sql);
  if (stmt.reader) return { rows: stmt.all(query.parameters) as unknown[] };
  const { changes, lastInsertRowid } = stmt.run(query.parameters);
  return {
    numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
    insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
    rows: [],
  };
}

/** One writer at a time in this process (the writer handle is shared); waiters queue in order. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return acquired;
  }
}

class SplitSqliteDriver implements Driver {
  readonly #writeLock = new Mutex();
  constructor(private readonly options: SplitSqliteOptions) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Session(this.options, this.#writeLock);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Session).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Session).end("commit");
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Session).end("rollback");
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Session).releaseIfHeld();
  }

  async destroy(): Promise<void> {
    this.options.reader?.close();
    this.options.writer.close();
  }
}

/** What Kysely calls a connection: one unit of work (a statement, or a transaction) on the shared handles. */
class Session implements DatabaseConnection {
  #release: (() => void) | null = null;
  constructor(
    private readonly options: SplitSqliteOptions,
    private readonly writeLock: Mutex,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { writer, reader, busyTimeoutMs } = this.options;
    if (this.#release) return (await retryWhileBusy(() => execute(writer, query), busyTimeoutMs)) as QueryResult<R>;
    if (reader && SelectQueryNode.is(query.query)) return (await retryWhileBusy(() => execute(reader, query), busyTimeoutMs)) as QueryResult<R>;
    const release = await this.writeLock.lock();
    try {
      return (await retryWhileBusy(() => execute(writer, query), busyTimeoutMs)) as QueryResult<R>;
    } finally {
      release();
    }
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error("only select queries can be streamed");
    const db = this.#release ? this.options.writer : (this.options.reader ?? this.options.writer);
    for (const row of db.prepare(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
  }

  /** BEGIN IMMEDIATE: the write lock is taken up front, so a transaction that reads then writes cannot fail half-way on another process's commit. */
  async begin(): Promise<void> {
    const release = await this.writeLock.lock();
    try {
      await retryWhileBusy(() => execute(this.options.writer, CompiledQuery.raw("begin immediate")), this.options.busyTimeoutMs);
    } catch (e) {
      release();
      throw e;
    }
    this.#release = release;
  }

  async end(how: "commit" | "rollback"): Promise<void> {
    try {
      await retryWhileBusy(() => execute(this.options.writer, CompiledQuery.raw(how)), this.options.busyTimeoutMs);
    } catch (e) {
      // A failed COMMIT leaves the transaction open: Kysely rolls it back next, still holding the lock.
      if (how === "rollback") this.releaseIfHeld();
      throw e;
    }
    this.releaseIfHeld();
  }

  releaseIfHeld(): void {
    const release = this.#release;
    this.#release = null;
    release?.();
  }
}
