import { AppError } from "../errors.js";
import type { Tx } from "../store/db.js";
import type { CallRow } from "../store/schema.js";
import { isoNow } from "../time.js";

/**
 * The processing state machine of spec 3.1 / 3.2, in one place. No other
 * processing_status values exist. report_status is derived from it here, so
 * report_url (set only when ready) can never disagree with the state.
 */
import { PROCESSING_STATUSES, type ProcessingStatus } from "../store/states.js";

export { PROCESSING_STATUSES, type ProcessingStatus };
export const WORKING_STATUSES: readonly ProcessingStatus[] = ["queued", "transcribing", "analyzing"];

const ALLOWED: Record<ProcessingStatus, readonly ProcessingStatus[]> = {
  // queued -> analyzing: a call with an imported transcript skips transcription.
  queued: ["transcribing", "analyzing", "failed"],
  // -> queued: a retry after a failed attempt or a crash hands the call back to the queue.
  transcribing: ["analyzing", "failed", "queued"],
  analyzing: ["complete", "failed", "queued"],
  // Reprocessing and attaching audio re-queue a finished call.
  complete: ["queued"],
  failed: ["queued"],
};

export function canTransition(from: ProcessingStatus, to: ProcessingStatus): boolean {
  return ALLOWED[from].includes(to);
}

export interface TransitionOptions {
  reason?: string | null;
  /** Required when moving to `failed`. */
  failureReason?: string;
  /** With failureReason: a short detail the client may see (e.g. "HTTP 404"). */
  failureDetail?: string | null;
  /** For `complete`: the headline fields the Call resource shows from the report. */
  overallScore?: number | null;
  outcome?: string | null;
  now?: Date;
}

/**
 * Moves a call to `to` and records the change in call_history, in the caller's
 * transaction. Moving to the state the call is already in changes nothing and
 * returns `changed: false` — a job resumed after a crash does not repeat its
 * transitions (and so not their events).
 */
export async function transitionCall(
  trx: Tx,
  callId: number,
  to: ProcessingStatus,
  opts: TransitionOptions = {},
): Promise<{ call: CallRow; changed: boolean; from: ProcessingStatus }> {
  const current = await trx.selectFrom("calls").selectAll().where("id", "=", callId).executeTakeFirst();
  if (!current) throw new AppError("not_found", `call ${callId} not found`);
  const from = current.processing_status;
  if (from === to) return { call: current, changed: false, from };
  if (!canTransition(from, to)) throw new AppError("conflict", `call ${callId} cannot go from ${from} to ${to}`);
  if (to === "failed" && !opts.failureReason) throw new AppError("internal_error", "a failed call needs a failure_reason");
  const at = isoNow(opts.now);
  const patch: Partial<CallRow> = {
    processing_status: to,
    report_status: to === "complete" ? "ready" : "pending",
    failure_reason: to === "failed" ? opts.failureReason! : null,
    failure_detail: to === "failed" ? (opts.failureDetail ?? null) : null,
    updated_at: at,
  };
  if (to === "complete") {
    patch.overall_score = opts.overallScore ?? null;
    patch.outcome = opts.outcome ?? null;
  }
  const call = await trx.updateTable("calls").set(patch).where("id", "=", callId).returningAll().executeTakeFirstOrThrow();
  await trx
    .insertInto("call_history")
    .values({ call_id: callId, from_status: from, to_status: to, reason: opts.reason ?? (to === "failed" ? opts.failureReason! : null), at })
    .execute();
  return { call, changed: true, from };
}

export async function callHistory(db: Tx | import("../store/db.js").Db, callId: number) {
  return db.selectFrom("call_history").selectAll().where("call_id", "=", callId).orderBy("id").execute();
}
