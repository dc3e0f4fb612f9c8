import type { DbOrTx } from "../store/db.js";
import { isoNow } from "../time.js";

/** A failed attempt with attempts left: back to the queue, not before `runAt`. Lease holder only. */
export async function retryJob(db: DbOrTx, input: { jobId: number; workerId: string; error: string; runAt: Date; now: Date }): Promise<boolean> {
  const r = await db
    .updateTable("jobs")
    .set({
      status: "queued",
      run_at: isoNow(input.runAt),
      last_error: input.error.slice(0, 2000),
      locked_by: null,
      locked_until: null,
      progress: null,
      updated_at: isoNow(input.now),
    })
    .where("id", "=", input.jobId)
    .where("locked_by", "=", input.workerId)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
