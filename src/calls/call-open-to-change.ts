import { AppError } from "../errors.js";
import { getCompanyCall } from "../store/calls.js";
import type { DbOrTx } from "../store/db.js";
import type { CallRow } from "../store/schema.js";

/**
 * The company's call, for a change of its inputs (new audio, an imported
 * transcript): 404 when it is not theirs, 409 `conflict` with its `status`
 * while a job is transcribing or analysing it — the running job would not see
 * the new input and would report on the old one.
 */
export async function callOpenToChange(db: DbOrTx, companyId: number, callId: number, action: string): Promise<CallRow> {
  const call = await getCompanyCall(db, companyId, callId);
  if (!call) throw new AppError("not_found", `call ${callId} not found`);
  if (call.processing_status === "transcribing" || call.processing_status === "analyzing") {
    throw new AppError("conflict", `call ${call.id} is being processed (${call.processing_status}); ${action} once it is complete or failed`, {
      extra: { status: call.processing_status },
    });
  }
  return call;
}
