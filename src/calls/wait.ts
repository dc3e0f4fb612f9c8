import type { Services } from "../services.js";
import { latestJobOfCall } from "../queue/job-of-call.js";
import type { CallRow } from "../store/schema.js";
import { isTerminal } from "../store/states.js";

export interface CallProgress {
  call: CallRow;
  /** The running job's stage (download, transcribe, analyze) and percent when the stage reports it. */
  stage: string | null;
  progress: number | null;
}

export async function callProgress(services: Services, callId: number): Promise<CallProgress | undefined> {
  const call = await services.store.db.selectFrom("calls").selectAll().where("id", "=", callId).executeTakeFirst();
  if (!call) return undefined;
  const job = await latestJobOfCall(services.store.db, callId);
  const running = job?.status === "running";
  return { call, stage: running ? job.stage : null, progress: running ? job.progress : null };
}

export function isFinished(call: CallRow): boolean {
  return isTerminal(call.processing_status);
}
