import type { Db } from "../store/db.js";

/**
 * In-process signal "jobs were committed to this database". Workers of the
 * same process subscribe so they claim at once instead of waiting out their
 * idle poll; workers of other processes still find the jobs by polling. Only a
 * hint: the queue table stays the source of truth.
 */
const listeners = new WeakMap<Db, Set<() => void>>();

export function onJobsAdded(db: Db, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Call after the commit that added the jobs (a listener claiming earlier would find nothing). */
export function signalJobsAdded(db: Db): void {
  const set = listeners.get(db);
  if (set) for (const l of set) l();
}
