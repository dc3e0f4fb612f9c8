import type { Logger } from "../logger.js";
import type { Db } from "../store/db.js";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../store/schema.js";
import { recordAttempt, releaseDelivery, type DeliveryStatus } from "../store/webhook-deliveries.js";
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

/**
 * One attempt of one claimed delivery: sign now, POST, then record the attempt
 * and the delivery's next state in one transaction. 2xx delivers; 410 fails the
 * delivery and disables the endpoint; anything else is retried on the schedule
 * (or after Retry-After on 429/503) until the sequence is spent.
 */
export async function attemptDelivery(
  db: Db,
  delivery: WebhookDeliveryRow,
  token: string,
  endpoint: WebhookEndpointRow | undefined,
  payload: string | undefined,
  opts: AttemptOptions,
): Promise<AttemptResult> {
  if (!endpoint || endpoint.enabled !== 1 || payload === undefined) {
    await releaseDelivery(db, delivery.id, token);
    return { deliveryId: delivery.id, status: "released", responseStatus: null, error: null, nextAttemptAt: null };
  }
  const started = opts.clock.now();
  const sent = await sendSigned(endpoint, { type: delivery.event_type, id: delivery.event_id, payload }, started, opts.timeoutMs);
  const finished = opts.clock.now();

  const attempt = delivery.attempts + 1;
  // A delivery made due again by a replay starts a fresh retry sequence (retry_index 0).
  const trigger = delivery.attempts > 0 && delivery.retry_index === 0 ? "replay" : "scheduled";
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
      next = isoNow(new Date(finished.getTime() + (hinted ?? scheduled)));
    }
  }

  const at = isoNow(finished);
  const recorded = await db.transaction().execute(async (trx) => {
    const mine = await recordAttempt(trx, delivery.id, token, {
      attempt,
      trigger,
      started_at: isoNow(started),
      signature_timestamp: sent.timestamp,
      response_status: sent.status,
      error: sent.error,
      duration_ms: sent.durationMs,
      status,
      retry_index: retryIndex,
      next_attempt_at: next,
      at,
    });
    if (mine && gone) await setWebhookEndpointEnabled(trx, endpoint.id, false, `receiver answered 410 Gone at ${at}`, at);
    return mine;
  });
  if (!recorded) {
    opts.logger.warn("webhook delivery lease lost before the result was recorded", { delivery_id: delivery.id });
  } else if (gone) {
    opts.logger.warn("webhook endpoint disabled: receiver answered 410", { endpoint_id: endpoint.id, delivery_id: delivery.id });
  } else if (!ok) {
    opts.logger.info("webhook delivery attempt failed", { delivery_id: delivery.id, endpoint_id: endpoint.id, attempt, response_status: sent.status, error: sent.error, next_attempt_at: next });
  }
  return { deliveryId: delivery.id, status, responseStatus: sent.status, error: sent.error, nextAttemptAt: next };
}
