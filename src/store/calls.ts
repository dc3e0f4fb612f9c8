import { executeRaw } from "./dialect.js";
import type { DbOrTx, Tx } from "./db.js";
import type { CallRow, NewCall } from "./schema.js";

/**
 * Inserts a call unless the company already has one with the same
 * external_call_id. The unique index decides, so concurrent submissions race
 * safely: exactly one insert wins, the others get `undefined` back.
 */
export async function insertCallUnlessDuplicate(db: DbOrTx, call: NewCall): Promise<CallRow | undefined> {
  // Plain SQL rather than the query builder: building a 29-column insert was a
  // tenth of the cost of accepting a call. Same statement text per column set,
  // so the driver's statement cache serves it prepared.
  const columns = (Object.keys(call) as (keyof NewCall)[]).filter((k) => call[k] !== undefined && /^[a-z_][a-z0-9_]*$/.test(k));
  const text = `insert into "calls" (${columns.map((c) => `"${c}"`).join(", ")}) values (${columns.map(() => "?").join(", ")}) on conflict ("company_id", "external_call_id") do nothing returning *`;
  const result = await executeRaw<CallRow>(
    db,
    text,
    columns.map((c) => call[c]),
  );
  return result.rows[0];
}

export async function findCallByExternalId(db: DbOrTx, companyId: number, externalCallId: string): Promise<CallRow | undefined> {
  return db.selectFrom("calls").selectAll().where("company_id", "=", companyId).where("external_call_id", "=", externalCallId).executeTakeFirst();
}

/** Company-scoped: another company's call is simply not found. */
export async function getCompanyCall(db: DbOrTx, companyId: number, callId: number): Promise<CallRow | undefined> {
  return db.selectFrom("calls").selectAll().where("id", "=", callId).where("company_id", "=", companyId).executeTakeFirst();
}

export async function getCall(db: DbOrTx, callId: number): Promise<CallRow | undefined> {
  return db.selectFrom("calls").selectAll().where("id", "=", callId).executeTakeFirst();
}

/** Newest first; `startingAfter` is a call id, and the page holds older calls only. */
export async function listCompanyCalls(db: DbOrTx, companyId: number, opts: { limit: number; startingAfter?: number }): Promise<CallRow[]> {
  let q = db.selectFrom("calls").selectAll().where("company_id", "=", companyId);
  if (opts.startingAfter !== undefined) q = q.where("id", "<", opts.startingAfter);
  return q.orderBy("id", "desc").limit(opts.limit).execute();
}

/** Records a fetched recording on its call; the URL is stored as given (the caller strips credentials). */
export async function setCallAudio(
  db: DbOrTx,
  callId: number,
  audio: { sha256: string; format: string; bytes: number; recordingUrl: string | null },
): Promise<void> {
  await db
    .updateTable("calls")
    .set({ audio_sha256: audio.sha256, audio_format: audio.format, audio_bytes: audio.bytes, recording_url: audio.recordingUrl })
    .where("id", "=", callId)
    .execute();
}

/** Why the call was last queued (e.g. "accepted", "reprocess"), or null when it never was. */
export async function lastQueuedReason(db: DbOrTx, callId: number): Promise<string | null> {
  const row = await db
    .selectFrom("call_history")
    .select("reason")
    .where("call_id", "=", callId)
    .where("to_status", "=", "queued")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.reason ?? null;
}

/** Exported for the test that runs it against a migrated database (test/store/raw-sql.test.ts). */
export const INSERT_ACCEPTED_HISTORY =
  `insert into "call_history" ("call_id", "from_status", "to_status", "reason", "at") ` + `values (?, null, 'queued', 'accepted', ?)`;

/** The first history row of a call just accepted. Plain SQL for the same reason as insertCallUnlessDuplicate: it runs once per accepted call. */
export async function insertAcceptedHistory(trx: Tx, callId: number, at: string): Promise<void> {
  await executeRaw(trx, INSERT_ACCEPTED_HISTORY, [callId, at]);
}
