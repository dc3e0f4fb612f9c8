import { randomBase62 } from "../auth/random.js";
import type { DbOrTx } from "../store/db.js";
import { isoNow } from "../time.js";
import { requireEndpoint } from "./endpoints.js";
import { sendSigned } from "./signed-request.js";
import type { EventBody } from "./types.js";

export interface TestDeliveryResult {
  endpoint_id: number;
  event_id: string;
  ok: boolean;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
}

/** A call.received body for a call that does not exist, flagged `data.test: true` so receivers can tell. */
export function sampleEvent(now: Date): EventBody {
  const at = isoNow(now);
  return {
    id: `evt_test_${randomBase62(20)}`,
    type: "call.received",
    created_at: at,
    data: {
      test: true,
      call: {
        call_id: 0,
        external_call_id: "test-call",
        customer_name: "Test Customer",
        processing_status: "queued",
        report_status: "pending",
        overall_score: null,
        outcome: null,
        failure_reason: null,
        created_at: at,
        report_url: null,
      },
      external_call_id: "test-call",
      crm_contact_id: null,
      crm_deal_id: null,
    },
  };
}

/** Sends one signed sample now, straight from the caller's process; nothing is recorded or retried. */
export async function sendTestDelivery(db: DbOrTx, endpointId: number, opts: { now?: Date; timeoutMs?: number } = {}): Promise<TestDeliveryResult> {
  const endpoint = await requireEndpoint(db, endpointId);
  const now = opts.now ?? new Date();
  const event = sampleEvent(now);
  const r = await sendSigned(endpoint, { type: event.type, id: event.id, payload: JSON.stringify(event) }, now, opts.timeoutMs ?? 10_000);
  const ok = r.status !== null && r.status >= 200 && r.status < 300;
  return { endpoint_id: endpoint.id, event_id: event.id, ok, response_status: r.status, error: r.error, duration_ms: r.durationMs };
}
