import { isPostgres } from "./dialect.js";
import type { DbOrTx, Tx } from "./db.js";
import type { EventRow } from "./schema.js";

/** Queues an event for fan-out; called in the transaction that records the event (migration 012 says why). */
export async function queueForFanout(trx: Tx, eventRowId: number): Promise<void> {
  await trx.insertInto("webhook_fanout_queue").values({ event_row_id: eventRowId }).execute();
}

export async function hasQueuedEvents(db: DbOrTx): Promise<boolean> {
  return (await db.selectFrom("webhook_fanout_queue").select("event_row_id").limit(1).executeTakeFirst()) !== undefined;
}

/**
 * The oldest queued events, locked for this transaction. On PostgreSQL the
 * rows are taken FOR UPDATE SKIP LOCKED, so two dispatchers fan out disjoint
 * batches at once; SQLite's write transaction already excludes the other.
 * An id whose event was erased meanwhile comes back without an event (`type` null).
 */
export async function takeQueuedEvents(
  trx: Tx,
  limit: number,
): Promise<{ queued: number[]; events: Pick<EventRow, "id" | "event_id" | "company_id" | "type">[] }> {
  let q = trx.selectFrom("webhook_fanout_queue").select("event_row_id").orderBy("event_row_id").limit(limit);
  if (isPostgres(trx)) q = q.forUpdate().skipLocked();
  const queued = (await q.execute()).map((r) => r.event_row_id);
  if (queued.length === 0) return { queued, events: [] };
  const events = await trx.selectFrom("events").select(["id", "event_id", "company_id", "type"]).where("id", "in", queued).orderBy("id").execute();
  return { queued, events };
}

export async function dequeueEvents(trx: Tx, eventRowIds: number[]): Promise<void> {
  for (let i = 0; i < eventRowIds.length; i += 500) {
    await trx
      .deleteFrom("webhook_fanout_queue")
      .where("event_row_id", "in", eventRowIds.slice(i, i + 500))
      .execute();
  }
}

/** events.id -> payload, for the deliveries one claim returned. */
export async function eventPayloads(db: DbOrTx, eventRowIds: number[]): Promise<Map<number, string>> {
  if (eventRowIds.length === 0) return new Map();
  const rows = await db.selectFrom("events").select(["id", "payload"]).where("id", "in", eventRowIds).execute();
  return new Map(rows.map((r) => [r.id, r.payload]));
}
