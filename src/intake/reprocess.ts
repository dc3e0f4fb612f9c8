import { WORKING_STATUSES, transitionCall, type ProcessingStatus } from "../calls/state.js";
import { AppError } from "../errors.js";
import { addJob } from "../queue/add-job.js";
import { pipelineForCall, queuePipelineOf } from "../queue/job-pipeline.js";
import { getCompanyCall } from "../store/calls.js";
import type { Db } from "../store/db.js";
import type { CallRow } from "../store/schema.js";

/**
 * Reprocess (DESIGN): a finished or failed call goes back to queued (the state
 * machine sets report_status pending, so report_url reads null) with a new job;
 * earlier reports stay in the reports table as history. A call still queued or
 * being worked is left alone: its live job will produce the report, and a
 * second job would only repeat the work.
 */
export async function reprocessCall(
  db: Db,
  input: { companyId: number; callId: number },
  now: Date = new Date(),
): Promise<{ call: CallRow; requeued: boolean }> {
  return db.transaction().execute(async (trx) => {
    const call = await getCompanyCall(trx, input.companyId, input.callId);
    if (!call) throw new AppError("not_found", `call ${input.callId} not found`);
    if (WORKING_STATUSES.includes(call.processing_status as ProcessingStatus)) return { call, requeued: false };
    const moved = await transitionCall(trx, call.id, "queued", { reason: "reprocess", now });
    await addJob(trx, { callId: call.id, priority: call.priority, pipeline: await pipelineForCall(trx, call.id, queuePipelineOf(db)) }, now);
    return { call: moved.call, requeued: true };
  });
}
