import type { DbOrTx } from "../store/db.js";

/** Records the running stage and its progress for whoever watches (submit --wait). Lease holder only. */
export async function setJobProgress(db: DbOrTx, input: { jobId: number; workerId: string; stage: string; progress: number | null }): Promise<void> {
  await db
    .updateTable("jobs")
    .set({ stage: input.stage, progress: input.progress === null ? null : Math.max(0, Math.min(100, Math.round(input.progress))) })
    .where("id", "=", input.jobId)
    .where("locked_by", "=", input.workerId)
    .where("status", "=", "running")
    .execute();
}
