import type { Tx } from "../store/db.js";
import type { CallRow } from "../store/schema.js";
import { isTerminal } from "../store/states.js";
import { transitionCall } from "./state.js";

/**
 * A call given new input (audio, a transcript) goes back to `queued` when it had finished or
 * failed; a queued call stays as it is (its waiting job will see the input). Callers first refuse
 * a call being worked on (callOpenToChange), so these are the only two cases.
 */
export async function requeueIfFinished(trx: Tx, call: CallRow, reason: string, now: Date): Promise<{ call: CallRow; requeued: boolean }> {
  if (!isTerminal(call.processing_status)) return { call, requeued: false };
  const moved = await transitionCall(trx, call.id, "queued", { reason, now });
  return { call: moved.call, requeued: moved.changed };
}
