import { sql } from "kysely";
import type { Db } from "../store/db.js";
import { isPostgres } from "../store/dialect.js";
import { listen } from "../store/postgres-listen.js";

/**
 * Signal "jobs were committed to this database". Workers subscribe so they
 * claim at once instead of waiting out their idle poll. Within one process
 * the signal is a direct call; on PostgreSQL it is also a NOTIFY on
 * JOBS_CHANNEL, which wakes the workers of every other process and machine
 * (on SQLite other processes find the jobs by polling). Only a hint: the
 * queue table stays the source of truth, and the poll the fallback.
 */
export const JOBS_CHANNEL = "callreview_jobs";

const listeners = new WeakMap<Db, Set<() => void>>();

export function onJobsAdded(db: Db, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  const unlisten = isPostgres(db) ? listen(db, JOBS_CHANNEL, listener) : undefined;
  return () => {
    set.delete(listener);
    unlisten?.();
  };
}

/** Call after the commit that added the jobs (a listener claiming earlier would find nothing). */
export function signalJobsAdded(db: Db): void {
  const set = listeners.get(db);
  if (set) for (const l of set) l();
  if (isPostgres(db)) void sql`SELECT pg_notify(${JOBS_CHANNEL}, '')`.execute(db).catch(() => undefined);
}
