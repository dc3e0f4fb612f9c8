import type { DbOrTx, Tx } from "./db.js";
import { TERMINAL_STATUSES } from "./states.js";

/** Calls whose work is over (complete or failed): retention never touches a call the pipeline may still read. */
const SETTLED = [...TERMINAL_STATUSES];

/** Calls of a company created before `cutoff` (oldest first). */
export async function callsCreatedBefore(db: DbOrTx, companyId: number, cutoff: string, limit: number, afterId = 0): Promise<number[]> {
  const rows = await db
    .selectFrom("calls")
    .select("id")
    .where("company_id", "=", companyId)
    .where("created_at", "<", cutoff)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Settled calls created before `cutoff` that still have a transcript. */
export async function callsWithTranscriptBefore(db: DbOrTx, companyId: number, cutoff: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("calls")
    .select("calls.id")
    .where("calls.company_id", "=", companyId)
    .where("calls.created_at", "<", cutoff)
    .where("calls.processing_status", "in", SETTLED)
    .where(({ exists, selectFrom }) => exists(selectFrom("transcripts").select("transcripts.id").whereRef("transcripts.call_id", "=", "calls.id")))
    .orderBy("calls.id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Settled calls created before `cutoff` that still have stored audio. */
export async function callsWithAudioBefore(db: DbOrTx, companyId: number, cutoff: string, limit: number): Promise<Array<{ id: number; audio_sha256: string }>> {
  const rows = await db
    .selectFrom("calls")
    .select(["id", "audio_sha256"])
    .where("company_id", "=", companyId)
    .where("created_at", "<", cutoff)
    .where("processing_status", "in", SETTLED)
    .where("audio_sha256", "is not", null)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, audio_sha256: r.audio_sha256! }));
}

/** Forgets a call's stored audio (the caller removes the file if no other call uses it). */
export async function clearCallAudio(trx: Tx, callId: number, at: string): Promise<boolean> {
  const r = await trx
    .updateTable("calls")
    .set({ audio_sha256: null, audio_format: null, audio_bytes: null, updated_at: at })
    .where("id", "=", callId)
    .where("processing_status", "in", SETTLED)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteTranscriptsOf(trx: Tx, callId: number): Promise<number> {
  const r = await trx.deleteFrom("transcripts").where("call_id", "=", callId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export interface DueCounts {
  audio: number;
  transcripts: number;
  calls: number;
}

/** How much each policy would act on now (doctor). */
export async function countDue(db: DbOrTx, companyId: number, cutoffs: { audio?: string; transcripts?: string; calls?: string }): Promise<DueCounts> {
  const n = async (q: Promise<{ n: number | string | bigint } | undefined>) => Number((await q)?.n ?? 0);
  const calls = cutoffs.calls
    ? await n(
        db
          .selectFrom("calls")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("company_id", "=", companyId)
          .where("created_at", "<", cutoffs.calls)
          .executeTakeFirst(),
      )
    : 0;
  const audio = cutoffs.audio
    ? await n(
        db
          .selectFrom("calls")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("company_id", "=", companyId)
          .where("created_at", "<", cutoffs.audio)
          .where("processing_status", "in", SETTLED)
          .where("audio_sha256", "is not", null)
          .executeTakeFirst(),
      )
    : 0;
  const transcripts = cutoffs.transcripts
    ? await n(
        db
          .selectFrom("calls")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("company_id", "=", companyId)
          .where("created_at", "<", cutoffs.transcripts)
          .where("processing_status", "in", SETTLED)
          .where(({ exists, selectFrom }) => exists(selectFrom("transcripts").select("transcripts.id").whereRef("transcripts.call_id", "=", "calls.id")))
          .executeTakeFirst(),
      )
    : 0;
  return { audio, transcripts, calls };
}
