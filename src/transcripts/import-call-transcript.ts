import fs from "node:fs";
import { callOpenToChange } from "../calls/call-open-to-change.js";
import { requeueIfFinished } from "../calls/requeue-finished.js";
import { AppError } from "../errors.js";
import type { Transcript } from "../pipeline/ports.js";
import { addJob } from "../queue/add-job.js";
import type { Db } from "../store/db.js";
import type { CallRow, TranscriptRow } from "../store/schema.js";
import { storeTranscript } from "../lifecycle/redaction/store-transcript.js";
import { isoNow } from "../time.js";
import { formatOfFileName, parseTranscript } from "./import/index.js";

export interface ImportResult {
  call: CallRow;
  transcript: TranscriptRow;
  /** True when this import put the call back in the queue (it was complete or failed). */
  requeued: boolean;
}

/**
 * Stores a bring-your-own transcript and queues its analysis, in one
 * transaction: a finished or failed call goes back to `queued` ("transcript
 * imported"); a queued call keeps its job, which then finds the transcript and
 * skips transcription. A call already being transcribed or analysed is refused:
 * its running job would not see the new transcript.
 */
export async function importCallTranscript(
  db: Db,
  input: { companyId: number; callId: number; transcript: Transcript },
  now: Date = new Date(),
): Promise<ImportResult> {
  return db.transaction().execute(async (trx) => {
    const call = await callOpenToChange(trx, input.companyId, input.callId, "import the transcript");
    const transcript = (
      await storeTranscript(trx, { companyId: call.company_id, callId: call.id, source: "imported", transcript: input.transcript, createdAt: isoNow(now) })
    ).row;
    const { call: current, requeued } = await requeueIfFinished(trx, call, "transcript imported", now);
    // The words are here: any worker can analyse them.
    const { job, added } = await addJob(trx, { callId: call.id, priority: call.priority, pipeline: "any" }, now);
    if (!added && job.status === "queued" && job.pipeline !== "any") {
      // The waiting job no longer needs a transcriber: let any worker take it.
      await trx
        .updateTable("jobs")
        .set({ pipeline: "any", updated_at: isoNow(now) })
        .where("id", "=", job.id)
        .where("status", "=", "queued")
        .execute();
    }
    return { call: current, transcript, requeued };
  });
}

/**
 * Reads and parses a transcript file, the format from its extension. Errors
 * are one line naming the file and every problem (for the CLI).
 */
export function readTranscriptFile(file: string, repSpeaker?: string, format?: string): Transcript {
  const fmt = format ?? formatOfFileName(file);
  if (!fmt) throw new AppError("validation_failed", `cannot tell the format of ${file}: use a .vtt, .srt or .json file`);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new AppError("validation_failed", `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return parseTranscript(fmt, text, repSpeaker);
  } catch (e) {
    if (e instanceof AppError && e.errors) throw new AppError(e.code, `${file}: ${Object.values(e.errors).flat().join("; ")}`);
    throw e;
  }
}

/** Reads, parses and imports a transcript file for an existing call. */
export async function importTranscriptFile(
  db: Db,
  input: { companyId: number; callId: number; file: string; repSpeaker?: string; format?: string },
): Promise<ImportResult> {
  const transcript = readTranscriptFile(input.file, input.repSpeaker, input.format);
  return importCallTranscript(db, { companyId: input.companyId, callId: input.callId, transcript });
}
