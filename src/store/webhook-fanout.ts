import type { DbOrTx, Tx } from "./db.js";
import type { EventRow } from "./schema.js";

const CURSOR = "events";

/** The last events.id already turned into deliveries. */
export async function readFanoutCursor(db: DbOrTx): Promise<number> {
  const row = await db.selectFrom("webhook_fanout_cursor").select("last_event_row_id").where("name", "=", CURSOR).executeTakeFirst();
  return row?.last_event_row_id ?? 0;
}

export async function advanceFanoutCursor(trx: Tx, to: number, at: string): Promise<void> {
  await trx.updateTable("webhook_fanout_cursor").set({ last_event_row_id: to, updated_at: at }).where("name", "=", CURSOR).execute();
}

export async function eventsAfter(db: DbOrTx, afterId: number, limit: number): Promise<Pick<EventRow, "id" | "event_id" | "company_id" | "type">[]> {
  return db.selectFrom("events").select(["id", "event_id", "company_id", "type"]).where("id", ">", afterId).orderBy("id").limit(limit).execute();
}

/** events.id -> payload, for the deliveries one claim returned. */
export async function eventPayloads(db: DbOrTx, eventRowIds: number[]): Promise<Map<number, string>> {
  if (eventRowIds.length === 0) return new Map();
  const rows = await db.selectFrom("events").select(["id", "payload"]).where("id", "in", eventRowIds).execute();
  return new Map(rows.map((r) => [r.id, r.payload]));
}
