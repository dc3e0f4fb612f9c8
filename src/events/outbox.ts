import { randomBase62 } from "../auth/random.js";
import { toCallResource } from "../calls/resource.js";
import type { Tx } from "../store/db.js";
import { queueForFanout } from "../store/webhook-fanout.js";
import type { CallRow } from "../store/schema.js";
import { isoNow } from "../time.js";
import type { EventBody, EventType } from "./types.js";

/**
 * Writes one lifecycle event into the outbox. It takes a Tx on purpose: the
 * event must commit or roll back together with the state change that caused it,
 * so it exists exactly once per transition. The dispatcher delivers it later.
 */
export async function recordEvent(trx: Tx, call: CallRow, type: EventType, extra: Record<string, unknown> = {}, now: Date = new Date()): Promise<EventBody> {
  const body: EventBody = {
    id: `evt_${randomBase62(24)}`,
    type,
    created_at: isoNow(now),
    data: {
      call: toCallResource(call),
      external_call_id: call.external_call_id,
      crm_contact_id: call.crm_contact_id,
      crm_deal_id: call.crm_deal_id,
      ...extra,
    },
  };
  const row = await trx
    .insertInto("events")
    .values({
      event_id: body.id,
      company_id: call.company_id,
      call_id: call.id,
      type,
      payload: JSON.stringify(body),
      created_at: body.created_at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await queueForFanout(trx, row.id);
  return body;
}
