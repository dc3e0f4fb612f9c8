import type { DbOrTx } from "../store/db.js";
import { isoNow } from "../time.js";

/**
 * Jobs whose worker stopped heartbeating (crash, kill -9, lost machine) go back
 * to the queue once their lease is over. The attempt stays counted, so a job
 * that kills its worker every time still ends after max_attempts.
 */
export async function reclaimExpiredJobs(db: DbOrTx, now: Date): Promise<number> {
  const ts = isoNow(now);
  const r = await db
    .updateTable("jobs")
    .set({ status: "queued", locked_by: null, locked_until: null, progress: null, last_error: "lease expired (worker stopped)", updated_at: ts })
    .where("status", "=", "running")
    .where("locked_until", "<", ts)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
