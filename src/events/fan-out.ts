import type { Db } from "../store/db.js";
import { insertDeliveries, type NewDelivery } from "../store/webhook-deliveries.js";
import { activeEndpointsOf } from "../store/webhook-endpoints.js";
import { dequeueEvents, hasQueuedEvents, takeQueuedEvents } from "../store/webhook-fanout.js";
import { isoNow } from "../time.js";
import { subscribedEvents } from "./endpoints.js";

/**
 * Turns the next batch of outbox events into deliveries, one per subscribed,
 * enabled endpoint of the event's company. Taking the queued events, inserting
 * the deliveries and dequeuing happen in one transaction, so each event is
 * fanned out once (two dispatchers take turns on SQLite, disjoint batches on
 * PostgreSQL); the unique (endpoint, event) index backs that up. The queue is
 * written with the event, so an event is seen exactly when it commits, in
 * whatever order concurrent writers commit (docs/webhooks.md).
 */
export async function fanOutBatch(db: Db, now: Date, batchSize = 500): Promise<{ events: number; deliveries: number }> {
  // A read first: the write lock is taken only when there is something to fan out.
  if (!(await hasQueuedEvents(db))) return { events: 0, deliveries: 0 };
  return db.transaction().execute(async (trx) => {
    const { queued, events } = await takeQueuedEvents(trx, batchSize);
    if (queued.length === 0) return { events: 0, deliveries: 0 };
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
    await dequeueEvents(trx, queued);
    return { events: events.length, deliveries };
  });
}
