import type { Logger } from "../logger.js";
import type { Db } from "../store/db.js";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../store/schema.js";
import { attemptTrigger, recordAttempt, type AttemptOutcome, type DeliveryStatus } from "../store/webhook-deliveries.js";
import { setWebhookEndpointEnabled } from "../store/webhook-endpoints.js";
import type { Clock } from "../time.js";
import { isoNow } from "../time.js";
import { parseRetryAfterMs, retryDelayMs } from "./retry-schedule.js";
import { sendSigned } from "./signed-request.js";

export interface AttemptOptions {
  clock: Clock;
  timeoutMs: number;
  logger: Logger;
  random?: () => number;
}

export interface AttemptResult {
  deliveryId: number;
  status: DeliveryStatus | "released";
  responseStatus: number | null;
  error: string | null;
  nextAttemptAt: string | null;
}

/** An attempt made, not yet written down. */
export interface AttemptRecord {
  deliveryId: number;
  endpointId: number;
  token: string;
  outcome: AttemptOutcome;
  /** The receiver answered 410: disable the endpoint with the record. */
  gone: boolean;
}

/**
 * One attempt of one claimed delivery: sign now, POST, and work out the
 * delivery's next state. 2xx delivers; 410 fails the delivery and disables the
 * endpoint; anything else is retried on the schedule (later when Retry-After on
 * 429/503 asks for more time) until the sequence is spent. Nothing is written here: see recordAttempts.
 */
export async function performAttempt(
  delivery: WebhookDeliveryRow,
  token: string,
  endpoint: WebhookEndpointRow,
  payload: string,
  opts: AttemptOptions,
): Promise<AttemptRecord> {
  const started = opts.clock.now();
  const sent = await sendSigned(endpoint, { type: delivery.event_type, id: delivery.event_id, payload }, started, opts.timeoutMs);
  const finished = opts.clock.now();

  const trigger = attemptTrigger(delivery);
  const ok = sent.status !== null && sent.status >= 200 && sent.status < 300;
  const gone = sent.status === 410;
  let status: DeliveryStatus;
  let retryIndex = delivery.retry_index;
  let next: string | null = null;
  if (ok) status = "delivered";
  else if (gone) status = "failed";
  else {
    retryIndex += 1;
    const scheduled = retryDelayMs(retryIndex, opts.random);
    const hinted = sent.status === 429 || sent.status === 503 ? parseRetryAfterMs(sent.retryAfter, finished) : undefined;
    if (scheduled === null) status = "failed";
    else {
      status = "retrying";
      // Retry-After may ask for more time, never for less: a receiver answering "Retry-After: 5" to
      // every attempt would otherwise spend the whole sequence in under a minute.
      next = isoNow(new Date(finished.getTime() + Math.max(hinted ?? 0, scheduled)));
    }
  }
  return {
    deliveryId: delivery.id,
    endpointId: endpoint.id,
    token,
    gone,
    outcome: {
      // The claim already counted this attempt (and wrote it down as in flight).
      attempt: delivery.attempts,
      trigger,
      started_at: isoNow(started),
      signature_timestamp: sent.timestamp,
      response_status: sent.status,
      error: sent.error,
      duration_ms: sent.durationMs,
      status,
      retry_index: retryIndex,
      next_attempt_at: next,
      at: isoNow(finished),
    },
  };
}

/**
 * Writes attempts and the deliveries' new states in one transaction (several
 * at once when many finish together: one commit instead of one each). A
 * record whose lease was lost meanwhile is dropped: the newer holder's result wins.
 */
export async function recordAttempts(db: Db, records: AttemptRecord[], logger: Logger): Promise<boolean[]> {
  const kept = await db.transaction().execute(async (trx) => {
    const out: boolean[] = [];
    for (const r of records) {
      const mine = await recordAttempt(trx, r.deliveryId, r.token, r.outcome);
      if (mine && r.gone) await setWebhookEndpointEnabled(trx, r.endpointId, false, `receiver answered 410 Gone at ${r.outcome.at}`, r.outcome.at);
      out.push(mine);
    }
    return out;
  });
  records.forEach((r, i) => {
    const o = r.outcome;
    if (!kept[i]) logger.warn("webhook delivery lease lost before the result was recorded", { delivery_id: r.deliveryId });
    else if (r.gone) logger.warn("webhook endpoint disabled: receiver answered 410", { endpoint_id: r.endpointId, delivery_id: r.deliveryId });
    else if (o.status !== "delivered")
      logger.info("webhook delivery attempt failed", {
        delivery_id: r.deliveryId,
        endpoint_id: r.endpointId,
        attempt: o.attempt,
        response_status: o.response_status,
        error: o.error,
        next_attempt_at: o.next_attempt_at,
      });
  });
  return kept;
}

export function resultOf(r: AttemptRecord): AttemptResult {
  return {
    deliveryId: r.deliveryId,
    status: r.outcome.status,
    responseStatus: r.outcome.response_status,
    error: r.outcome.error,
    nextAttemptAt: r.outcome.next_attempt_at,
  };
}
