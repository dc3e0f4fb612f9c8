import { callOpenToChange } from "../calls/call-open-to-change.js";
import { requeueIfFinished } from "../calls/requeue-finished.js";
import { addJob } from "../queue/add-job.js";
import { pipelineForCall, queuePipelineOf } from "../queue/job-pipeline.js";
import { getCompanyCall } from "../store/calls.js";
import type { Db } from "../store/db.js";
import type { CallRow } from "../store/schema.js";

export interface AttachedAudio {
  sha256: string;
  format: string;
  bytes: number;
}

/**
 * POST /calls/{id}/audio (DESIGN "calls with no audio"): the stored file
 * becomes the call's audio, replacing any earlier one.
 * - queued: the waiting job will pick the audio up; nothing else changes.
 * - complete / failed: back to queued (reason "audio attached") with a new job.
 * - transcribing / analyzing: refused with 409 conflict — swapping the audio
 *   under a running job would produce a report of neither file.
 */
export async function attachAudio(
  db: Db,
  input: { companyId: number; callId: number; audio: AttachedAudio },
  now: Date = new Date(),
): Promise<{ call: CallRow; requeued: boolean }> {
  return db.transaction().execute(async (trx) => {
    const call = await callOpenToChange(trx, input.companyId, input.callId, "attach audio");
    await trx
      .updateTable("calls")
      .set({ audio_sha256: input.audio.sha256, audio_format: input.audio.format, audio_bytes: input.audio.bytes, updated_at: now.toISOString() })
      .where("id", "=", call.id)
      .execute();
    const { requeued } = await requeueIfFinished(trx, call, "audio attached", now);
    await addJob(trx, { callId: call.id, priority: call.priority, pipeline: await pipelineForCall(trx, call.id, queuePipelineOf(db)) }, now);
    const updated = await getCompanyCall(trx, input.companyId, call.id);
    return { call: updated!, requeued };
  });
}
