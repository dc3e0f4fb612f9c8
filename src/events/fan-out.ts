import type { Db } from "../store/db.js";
import { insertDeliveries, type NewDelivery } from "../store/webhook-deliveries.js";
import { activeEndpointsOf } from "../store/webhook-endpoints.js";
import { advanceFanoutCursor, eventsAfter, readFanoutCursor } from "../store/webhook-fanout.js";
import { isoNow } from "../time.js";
import { subscribedEvents } from "./endpoints.js";

/**
 * Turns the next batch of outbox events into deliveries, one per subscribed,
 * enabled endpoint of the event's company. Reading the cursor, inserting and
 * advancing happen in one write transaction (BEGIN IMMEDIATE), so two
 * dispatchers on one database take turns and each event is fanned out once;
 * the unique (endpoint, event) index backs that up.
 * Relies on events.id growing in commit order, which SQLite's single writer gives.
 */
export async function fanOutBatch(db: Db, now: Date, batchSize = 500): Promise<{ events: number; deliveries: number }> {
  // A read first: the write lock is taken only when there is something to fan out.
  if ((await eventsAfter(db, await readFanoutCursor(db), 1)).length === 0) return { events: 0, deliveries: 0 };
  return db.transaction().execute(async (trx) => {
    const cursor = await readFanoutCursor(trx);
    const events = await eventsAfter(trx, cursor, batchSize);
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const endpoints = await activeEndpointsOf(trx, [...new Set(events.map((e) => e.company_id))]);
    const at = isoNow(now);
    const rows: NewDelivery[] = [];
    for (const ev of events) {
      for (const ep of endpoints) {
        if (ep.company_id !== ev.company_id || ev.id <= ep.after_event_id) continue;
        if (!subscribedEvents(ep).includes(ev.type as never)) continue;
        rows.push({ company_id: ev.company_id, endpoint_id: ep.id, event_row_id: ev.id, event_id: ev.event_id, event_type: ev.type, created_at: at });
      }
    }
    const deliveries = rows.length > 0 ? await insertDeliveries(trx, rows) : 0;
    await advanceFanoutCursor(trx, events[events.length - 1].id, at);
    return { events: events.length, deliveries };
  });
}
