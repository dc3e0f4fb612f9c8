import fsp from "node:fs/promises";
import { audioPath } from "../audio/store.js";
import { AppError } from "../errors.js";
import { erasedEventPayload, recordCallDeleted } from "../events/call-deleted.js";
import type { Services } from "../services.js";
import { getCall, getCompanyCall } from "../store/calls.js";
import { audioStillReferenced, deleteCallRows, runningJobOf, type ErasedRows } from "../store/erasure.js";
import { scrubWriteAheadLog } from "../store/scrub.js";
import { audit, type Actor } from "./audit.js";

export interface ErasedCall {
  call_id: number;
  company_id: number;
  rows: ErasedRows;
  /** The audio file was removed (false: none stored, or another call still uses the same bytes). */
  audio_removed: boolean;
  /** The write-ahead log was emptied (false: another process held an old snapshot; null: left to the caller, e.g. a purge). */
  log_emptied: boolean | null;
}

export type EraseDeps = Pick<Services, "store" | "config" | "clock" | "logger">;

/**
 * Erases one call: its rows in one transaction (with call.deleted and the
 * audit entry), then its audio file unless another call shares the bytes,
 * then the write-ahead log. A call a worker holds right now is refused with
 * 409 `conflict` (and its status): the worker would write its words back.
 * `companyId` scopes the look-up (API keys); the CLI passes none.
 */
export async function eraseCall(
  deps: EraseDeps,
  input: { callId: number; companyId?: number; actor: Actor; reason?: "request" | "retention"; scrub?: boolean },
): Promise<ErasedCall> {
  const db = deps.store.db;
  const now = deps.clock.now();
  const { call, rows } = await db.transaction().execute(async (trx) => {
    const call = input.companyId !== undefined ? await getCompanyCall(trx, input.companyId, input.callId) : await getCall(trx, input.callId);
    if (!call) throw new AppError("not_found", `call ${input.callId} not found`);
    if (await runningJobOf(trx, call.id)) {
      throw new AppError("conflict", `call ${call.id} is being processed right now (${call.processing_status}); delete it once it is complete or failed`, {
        extra: { status: call.processing_status },
      });
    }
    const rows = await deleteCallRows(trx, call.id, (ev) => erasedEventPayload(call.id, ev));
    await recordCallDeleted(trx, call, input.reason ?? "request", now);
    await audit(trx, input.actor, "call.delete", { companyId: call.company_id, callId: call.id, detail: { reason: input.reason ?? "request" } }, now);
    return { call, rows };
  });
  const audioRemoved = call.audio_sha256 ? await removeAudioIfUnused(deps, call.audio_sha256) : false;
  const logEmptied = input.scrub !== false ? await scrub(deps) : null;
  deps.logger.info("call erased", { call_id: call.id, company_id: call.company_id, audio_removed: audioRemoved });
  return { call_id: call.id, company_id: call.company_id, rows, audio_removed: audioRemoved, log_emptied: logEmptied };
}

/** Content-addressed audio is shared by identical uploads: the file goes only with its last call. */
export async function removeAudioIfUnused(deps: EraseDeps, sha256: string): Promise<boolean> {
  if (await audioStillReferenced(deps.store.db, sha256)) return false;
  try {
    await fsp.rm(audioPath(deps.config.audioDir, sha256));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw e;
  }
}

/** Empties the write-ahead log so the deleted content's old page images leave the disk files. */
export async function scrub(deps: EraseDeps): Promise<boolean> {
  const emptied = await scrubWriteAheadLog(deps.store.db);
  if (!emptied) deps.logger.warn("write-ahead log not emptied: another process held a read snapshot; the next erasure or checkpoint empties it", {});
  return emptied;
}
