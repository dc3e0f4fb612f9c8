import type { Transcript } from "../../pipeline/ports.js";
import type { Tx } from "../../store/db.js";
import type { TranscriptRow } from "../../store/schema.js";
import { insertTranscript, type TranscriptSource } from "../../store/transcripts.js";
import { redactionOf } from "./kinds.js";
import { redactTranscript } from "./redact-transcript.js";

/**
 * The one way a transcript reaches the store: redacted first, per the
 * company's settings, so the raw words never touch the disk and everything
 * derived from the stored text (reports, webhooks, exports) is redacted too.
 * Returns the row and the redacted transcript, which is what analysis must read.
 */
export async function storeTranscript(
  trx: Tx,
  input: { companyId: number; callId: number; source: TranscriptSource; transcript: Transcript; createdAt: string },
): Promise<{ row: TranscriptRow; transcript: Transcript }> {
  const company = await trx.selectFrom("companies").select("settings").where("id", "=", input.companyId).executeTakeFirst();
  const settings = company ? (JSON.parse(company.settings) as Record<string, unknown>) : {};
  const transcript = redactTranscript(input.transcript, redactionOf(settings));
  const row = await insertTranscript(trx, { callId: input.callId, source: input.source, transcript, createdAt: input.createdAt });
  return { row, transcript };
}
