import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { AppError } from "../errors.js";
import { rememberUrl } from "./postgres-listen.js";
import type { Database } from "./schema.js";

// count(*) and sums are bigint (int8) in PostgreSQL; our counts fit a JS number, and the
// repositories compare them as numbers on both stores.
pg.types.setTypeParser(20, (v) => Number(v));

export interface PostgresOptions {
  /** Connections this process keeps open; workers and the API share them. */
  poolSize?: number;
}

/** `postgres://user:***@host:port/db`: for logs, errors and `doctor`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparseable url)";
  }
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/** A pool on the server; the first connection is made here, so a wrong URL fails at start with a clear message. */
export async function openPostgres(url: string, opts: PostgresOptions = {}): Promise<Kysely<Database>> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
  // An idle connection the server dropped must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  try {
    const c = await pool.connect();
    c.release();
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw new AppError("invalid_config", `cannot connect to PostgreSQL at ${redactUrl(url)}: ${(e as Error).message}`);
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  rememberUrl(db, url);
  return db;
}
