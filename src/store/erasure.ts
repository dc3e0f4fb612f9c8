import { SENDABLE_DELIVERY_STATUSES } from "./states.js";
import type { DbOrTx, Tx } from "./db.js";

export interface ErasedRows {
  transcripts: number;
  reports: number;
  history: number;
  jobs: number;
  /** Unsent deliveries (pending or retrying) dropped with their attempts. */
  deliveries_dropped: number;
  /** Events already sent (or given up on) whose stored payload became a tombstone. */
  events_tombstoned: number;
  events_deleted: number;
}

const SENDABLE = SENDABLE_DELIVERY_STATUSES;

/**
 * Deletes every row that holds a call's words or state, then the call row
 * itself, in the caller's transaction. Events a receiver already got (or that
 * failed for good) stay listed under their delivery, but their payload is
 * replaced by `tombstone(event)` and they no longer point at the call; unsent
 * deliveries go, and events no delivery refers to go with them.
 */
export async function deleteCallRows(
  trx: Tx,
  callId: number,
  tombstone: (event: { event_id: string; type: string; created_at: string }) => string,
): Promise<ErasedRows> {
  const events = await trx.selectFrom("events").select(["id", "event_id", "type", "created_at"]).where("call_id", "=", callId).execute();
  const eventIds = events.map((e) => e.id);
  let deliveriesDropped = 0;
  let tombstoned = 0;
  let eventsDeleted = 0;
  for (let i = 0; i < eventIds.length; i += 200) {
    const chunk = eventIds.slice(i, i + 200);
    const unsent = trx.selectFrom("webhook_deliveries").select("id").where("event_row_id", "in", chunk).where("status", "in", SENDABLE);
    await trx.deleteFrom("webhook_attempts").where("delivery_id", "in", unsent).execute();
    const d = await trx.deleteFrom("webhook_deliveries").where("event_row_id", "in", chunk).where("status", "in", SENDABLE).executeTakeFirst();
    deliveriesDropped += Number(d.numDeletedRows);
    const kept = new Set(
      (await trx.selectFrom("webhook_deliveries").select("event_row_id").distinct().where("event_row_id", "in", chunk).execute()).map((r) => r.event_row_id),
    );
    for (const ev of events.slice(i, i + 200)) {
      if (kept.has(ev.id)) {
        await trx
          .updateTable("events")
          .set({ payload: tombstone(ev), call_id: null })
          .where("id", "=", ev.id)
          .execute();
        tombstoned++;
      }
    }
    const gone = chunk.filter((id) => !kept.has(id));
    if (gone.length > 0) eventsDeleted += Number((await trx.deleteFrom("events").where("id", "in", gone).executeTakeFirst()).numDeletedRows);
  }
  const count = async (table: "transcripts" | "reports" | "call_history" | "jobs") =>
    Number((await trx.deleteFrom(table).where("call_id", "=", callId).executeTakeFirst()).numDeletedRows);
  const rows: ErasedRows = {
    transcripts: await count("transcripts"),
    reports: await count("reports"),
    history: await count("call_history"),
    jobs: await count("jobs"),
    deliveries_dropped: deliveriesDropped,
    events_tombstoned: tombstoned,
    events_deleted: eventsDeleted,
  };
  await trx.deleteFrom("calls").where("id", "=", callId).execute();
  return rows;
}

/** True while another call still points at this audio file (content-addressed files are shared). */
export async function audioStillReferenced(db: DbOrTx, sha256: string): Promise<boolean> {
  const row = await db.selectFrom("calls").select("id").where("audio_sha256", "=", sha256).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** A live (claimed) job of the call: a worker is reading its audio or words right now. */
export async function runningJobOf(db: Tx, callId: number): Promise<{ id: number } | undefined> {
  return db.selectFrom("jobs").select("id").where("call_id", "=", callId).where("status", "=", "running").limit(1).executeTakeFirst();
}
