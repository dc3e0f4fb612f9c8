import type { Transcript } from "../transcripts/types.js";
import type { DbOrTx } from "./db.js";
import type { TranscriptRow } from "./schema.js";

export type TranscriptSource = "whisper" | "imported";

export async function insertTranscript(
  db: DbOrTx,
  input: { callId: number; source: TranscriptSource; transcript: Transcript; createdAt: string },
): Promise<TranscriptRow> {
  return db
    .insertInto("transcripts")
    .values({
      call_id: input.callId,
      source: input.source,
      language: input.transcript.language,
      model: input.transcript.model,
      segments: JSON.stringify(input.transcript.segments),
      metrics: input.transcript.metrics ? JSON.stringify(input.transcript.metrics) : null,
      created_at: input.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function latestTranscriptRow(db: DbOrTx, callId: number): Promise<TranscriptRow | undefined> {
  return db.selectFrom("transcripts").selectAll().where("call_id", "=", callId).orderBy("id", "desc").limit(1).executeTakeFirst();
}

export function toTranscript(row: TranscriptRow): Transcript & { source: TranscriptSource } {
  return {
    source: row.source as TranscriptSource,
    segments: JSON.parse(row.segments),
    metrics: row.metrics ? JSON.parse(row.metrics) : null,
    language: row.language,
    model: row.model,
  };
}
