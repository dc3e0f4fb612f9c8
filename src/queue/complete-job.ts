import type { DbOrTx } from "../store/db.js";
import { isoNow } from "../time.js";

/**
 * The job's work is done. Only the lease holder can complete it; returns false
 * otherwise. locked_by stays as the record of which worker did the job.
 */
export async function completeJob(db: DbOrTx, input: { jobId: number; workerId: string; now: Date }): Promise<boolean> {
  const r = await db
    .updateTable("jobs")
    .set({ status: "completed", locked_until: null, progress: null, stage: null, updated_at: isoNow(input.now) })
    .where("id", "=", input.jobId)
    .where("locked_by", "=", input.workerId)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
