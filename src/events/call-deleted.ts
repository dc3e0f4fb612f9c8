import { randomBase62 } from "../auth/random.js";
import type { Tx } from "../store/db.js";
import { queueForFanout } from "../store/webhook-fanout.js";
import type { CallRow } from "../store/schema.js";
import { isoNow } from "../time.js";
import type { EventBody } from "./types.js";

/**
 * call.deleted: ids only, never the call's words (no Call resource, no
 * customer name), since it outlives the erasure it announces. The event row
 * does not point at the call: the call row is gone when it commits.
 */
export async function recordCallDeleted(trx: Tx, call: CallRow, reason: "request" | "retention", now: Date = new Date()): Promise<EventBody> {
  const body: EventBody = {
    id: `evt_${randomBase62(24)}`,
    type: "call.deleted",
    created_at: isoNow(now),
    data: {
      call_id: call.id,
      external_call_id: call.external_call_id,
      crm_contact_id: call.crm_contact_id,
      crm_deal_id: call.crm_deal_id,
      reason,
    },
  };
  const row = await trx
    .insertInto("events")
    .values({ event_id: body.id, company_id: call.company_id, call_id: null, type: body.type, payload: JSON.stringify(body), created_at: body.created_at })
    .returning("id")
    .executeTakeFirstOrThrow();
  await queueForFanout(trx, row.id);
  return body;
}

/** What an already-sent event's stored payload becomes once its call is erased: a replay sends this. */
export function erasedEventPayload(callId: number, event: { event_id: string; type: string; created_at: string }): string {
  return JSON.stringify({ id: event.event_id, type: event.type, created_at: event.created_at, data: { call_id: callId, erased: true } });
}
