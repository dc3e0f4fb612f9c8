import type { DbOrTx } from "../store/db.js";
import { isoNow } from "../time.js";

/** The job gives up for good (non-retryable error or out of attempts). Lease holder only; locked_by stays as the record of who ran it last. */
export async function failJob(db: DbOrTx, input: { jobId: number; workerId: string; error: string; now: Date }): Promise<boolean> {
  const r = await db
    .updateTable("jobs")
    .set({ status: "failed", last_error: input.error.slice(0, 2000), locked_until: null, progress: null, updated_at: isoNow(input.now) })
    .where("id", "=", input.jobId)
    .where("locked_by", "=", input.workerId)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
