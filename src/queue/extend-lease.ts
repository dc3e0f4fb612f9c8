import type { DbOrTx } from "../store/db.js";
import { isoNow } from "../time.js";

/**
 * Heartbeat: pushes the lease forward while the worker still owns the job.
 * Returns false when the lease was lost (expired and taken over, or the job
 * ended): the worker must then stop without writing anything more. Also used
 * as the fence at the start of every stage transaction.
 */
export async function extendLease(db: DbOrTx, input: { jobId: number; workerId: string; leaseMs: number; now: Date }): Promise<boolean> {
  const r = await db
    .updateTable("jobs")
    .set({ locked_until: isoNow(new Date(input.now.getTime() + input.leaseMs)), updated_at: isoNow(input.now) })
    .where("id", "=", input.jobId)
    .where("locked_by", "=", input.workerId)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
