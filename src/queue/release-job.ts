import type { DbOrTx } from "../store/db.js";
import { isoNow } from "../time.js";

/**
 * Hands a running job back untouched (shutdown): queued again at once, and the
 * attempt it was charged at claim time is given back since it never failed.
 */
export async function releaseJob(db: DbOrTx, input: { jobId: number; workerId: string; now: Date }): Promise<boolean> {
  const r = await db
    .updateTable("jobs")
    .set((eb) => ({ status: "queued", attempts: eb("attempts", "-", 1), locked_by: null, locked_until: null, progress: null, updated_at: isoNow(input.now) }))
    .where("id", "=", input.jobId)
    .where("locked_by", "=", input.workerId)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
