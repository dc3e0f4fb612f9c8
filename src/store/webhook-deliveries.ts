import { isPostgres } from "./dialect.js";
import type { Db, DbOrTx, Tx } from "./db.js";
import type { WebhookAttemptRow, WebhookDeliveryRow } from "./schema.js";

import { type DeliveryStatus, SENDABLE_DELIVERY_STATUSES } from "./states.js";

export { DELIVERY_STATUSES, type DeliveryStatus } from "./states.js";
const SENDABLE = SENDABLE_DELIVERY_STATUSES;

export interface NewDelivery {
  company_id: number;
  endpoint_id: number;
  event_row_id: number;
  event_id: string;
  event_type: string;
  created_at: string;
}

/** The unique (endpoint_id, event_row_id) index makes a repeated fan-out a no-op. */
export async function insertDeliveries(trx: Tx, rows: NewDelivery[]): Promise<number> {
  let added = 0;
  // Chunked: SQLite caps the number of bound parameters per statement.
  for (let i = 0; i < rows.length; i += 50) {
    const chunk = rows
      .slice(i, i + 50)
      .map((r) => ({ ...r, status: "pending" as const, attempts: 0, retry_index: 0, next_attempt_at: r.created_at, updated_at: r.created_at }));
    const r = await trx
      .insertInto("webhook_deliveries")
      .values(chunk)
      .onConflict((oc) => oc.columns(["endpoint_id", "event_row_id"]).doNothing())
      .executeTakeFirst();
    added += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

/**
 * Enabled, not removed endpoints that hold a due, unleased delivery. One index
 * probe per endpoint (webhook_deliveries_due), however long the backlog is.
 * Invariant: next_attempt_at is non-null exactly while the delivery is pending or retrying.
 */
export async function dueEndpointIds(db: DbOrTx, now: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("webhook_endpoints as e")
    .select("e.id")
    .where("e.enabled", "=", 1)
    .where("e.removed_at", "is", null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("webhook_deliveries as d")
          .select("d.id")
          .whereRef("d.endpoint_id", "=", "e.id")
          .where("d.next_attempt_at", "<=", now)
          .where((w) => w.or([w("d.lease_until", "is", null), w("d.lease_until", "<=", now)])),
      ),
    )
    .orderBy("e.id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** What an attempt shows when the process sending it died before writing the answer down. */
export const LOST_ATTEMPT_ERROR = "lost: the sending process stopped before the answer was recorded";

/**
 * Claims up to `limit` due deliveries of one endpoint and writes their attempts
 * down as in flight, before anything is sent: the UPDATE … RETURNING is atomic,
 * so two dispatchers (even in two processes) never hold the same delivery, and
 * a crashed holder's lease simply runs out. An attempt still in flight on a
 * delivery claimable again was lost with its holder: it is marked lost and
 * counts as a failed attempt of the retry sequence, so sends a crash swallowed
 * are never missing from the count.
 */
export async function claimDueDeliveries(
  db: Db,
  endpointId: number,
  now: string,
  leaseUntil: string,
  token: string,
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  return db.transaction().execute(async (trx) => {
    const leased = await leaseDueDeliveries(trx, endpointId, now, leaseUntil, token, limit);
    if (leased.length === 0) return leased;
    const rows = await countLostAttempts(trx, leased);
    await recordAttemptsInFlight(trx, rows, now);
    return rows;
  });
}

/** The claim itself: one UPDATE … RETURNING over the endpoint's due, unleased deliveries. */
async function leaseDueDeliveries(trx: Tx, endpointId: number, now: string, leaseUntil: string, token: string, limit: number): Promise<WebhookDeliveryRow[]> {
  return (
    trx
      .updateTable("webhook_deliveries")
      .set((eb) => ({ lease_token: token, lease_until: leaseUntil, attempts: eb("attempts", "+", 1) }))
      .where("id", "in", (eb) =>
        eb
          .selectFrom("webhook_deliveries")
          .select("id")
          .where("endpoint_id", "=", endpointId)
          .where("next_attempt_at", "<=", now)
          .where((w) => w.or([w("lease_until", "is", null), w("lease_until", "<=", now)]))
          .orderBy("next_attempt_at")
          .orderBy("id")
          .limit(limit)
          // PostgreSQL: concurrent claimers pass over each other's rows instead of queueing on them.
          .$if(isPostgres(trx), (q) => q.forUpdate().skipLocked()),
      )
      // Repeated on the outer statement: PostgreSQL re-checks these (not the sub-select) on a row another
      // transaction changed meanwhile, so a delivery just leased elsewhere is not leased twice.
      .where("next_attempt_at", "<=", now)
      .where((w) => w.or([w("lease_until", "is", null), w("lease_until", "<=", now)]))
      .returningAll()
      .execute()
  );
}

/** Marks the claimed deliveries' attempts still in flight as lost and counts each as a failed try; returns the rows as they now stand. */
async function countLostAttempts(trx: Tx, rows: WebhookDeliveryRow[]): Promise<WebhookDeliveryRow[]> {
  const lost = await trx
    .updateTable("webhook_attempts")
    .set({ in_flight: 0, error: LOST_ATTEMPT_ERROR })
    .where(
      "delivery_id",
      "in",
      rows.map((r) => r.id),
    )
    .where("in_flight", "=", 1)
    .returning("delivery_id")
    .execute();
  if (lost.length === 0) return rows;
  const lostIds = [...new Set(lost.map((l) => l.delivery_id))];
  const bumped = await trx
    .updateTable("webhook_deliveries")
    .set((eb) => ({ retry_index: eb("retry_index", "+", 1), last_error: LOST_ATTEMPT_ERROR }))
    .where("id", "in", lostIds)
    .returningAll()
    .execute();
  const byId = new Map(bumped.map((b) => [b.id, b]));
  return rows.map((r) => byId.get(r.id) ?? r);
}

/** One in-flight attempt per claimed delivery, written before anything is sent. */
async function recordAttemptsInFlight(trx: Tx, rows: WebhookDeliveryRow[], now: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 50) {
    await trx
      .insertInto("webhook_attempts")
      .values(
        rows.slice(i, i + 50).map((r) => ({
          delivery_id: r.id,
          attempt: r.attempts,
          trigger: attemptTrigger(r),
          started_at: now,
          signature_timestamp: 0,
          response_status: null,
          error: null,
          duration_ms: 0,
          next_attempt_at: null,
          in_flight: 1,
        })),
      )
      .execute();
  }
}

/** A delivery made due again by a replay starts a fresh retry sequence (retry_index 0) on an already attempted delivery. */
export function attemptTrigger(claimed: Pick<WebhookDeliveryRow, "attempts" | "retry_index">): "scheduled" | "replay" {
  return claimed.attempts > 1 && claimed.retry_index === 0 ? "replay" : "scheduled";
}

/**
 * Gives a claimed delivery back unsent (the dispatcher is stopping or the endpoint went away): the
 * attempt the claim wrote down is taken back. With `fail`, the delivery ends failed instead of waiting.
 */
export async function releaseDelivery(db: Db, id: number, token: string, fail?: { error: string; at: string }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("webhook_deliveries")
      .set((eb) => ({
        lease_token: null,
        lease_until: null,
        attempts: eb("attempts", "-", 1),
        ...(fail ? { status: "failed", last_error: fail.error, next_attempt_at: null, updated_at: fail.at } : {}),
      }))
      .where("id", "=", id)
      .where("lease_token", "=", token)
      .returning("attempts")
      .executeTakeFirst();
    if (r)
      await trx
        .deleteFrom("webhook_attempts")
        .where("delivery_id", "=", id)
        .where("attempt", "=", r.attempts + 1)
        .where("in_flight", "=", 1)
        .execute();
  });
}

export interface AttemptOutcome {
  attempt: number;
  trigger: "scheduled" | "replay";
  started_at: string;
  signature_timestamp: number;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  status: DeliveryStatus;
  retry_index: number;
  next_attempt_at: string | null;
  at: string;
}

/**
 * Writes the attempt and the delivery's new state together, only while the
 * lease is still ours: a holder whose lease ran out must not overwrite the
 * newer holder's result. Returns false when the lease was lost.
 */
export async function recordAttempt(trx: Tx, deliveryId: number, token: string, o: AttemptOutcome): Promise<boolean> {
  const r = await trx
    .updateTable("webhook_deliveries")
    .set({
      status: o.status,
      attempts: o.attempt,
      retry_index: o.retry_index,
      response_status: o.response_status,
      last_error: o.error,
      next_attempt_at: o.next_attempt_at,
      delivered_at: o.status === "delivered" ? o.at : undefined,
      lease_token: null,
      lease_until: null,
      updated_at: o.at,
    })
    .where("id", "=", deliveryId)
    .where("lease_token", "=", token)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return false;
  const result = {
    trigger: o.trigger,
    started_at: o.started_at,
    signature_timestamp: o.signature_timestamp,
    response_status: o.response_status,
    error: o.error,
    duration_ms: o.duration_ms,
    next_attempt_at: o.next_attempt_at,
    in_flight: 0,
  };
  // The claim wrote the attempt down as in flight; it now gets its result.
  const updated = await trx
    .updateTable("webhook_attempts")
    .set(result)
    .where("delivery_id", "=", deliveryId)
    .where("attempt", "=", o.attempt)
    .where("in_flight", "=", 1)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await trx
      .insertInto("webhook_attempts")
      .values({ delivery_id: deliveryId, attempt: o.attempt, ...result })
      .execute();
  return true;
}

export async function getDelivery(db: DbOrTx, id: number): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listDeliveries(
  db: DbOrTx,
  opts: { companyId?: number; status?: DeliveryStatus; endpointId?: number; limit: number },
): Promise<WebhookDeliveryRow[]> {
  let q = db.selectFrom("webhook_deliveries").selectAll();
  if (opts.companyId !== undefined) q = q.where("company_id", "=", opts.companyId);
  if (opts.status !== undefined) q = q.where("status", "=", opts.status);
  if (opts.endpointId !== undefined) q = q.where("endpoint_id", "=", opts.endpointId);
  return q.orderBy("id", "desc").limit(opts.limit).execute();
}

export async function listAttempts(db: DbOrTx, deliveryId: number): Promise<WebhookAttemptRow[]> {
  return db.selectFrom("webhook_attempts").selectAll().where("delivery_id", "=", deliveryId).orderBy("id").execute();
}

/**
 * Makes a delivery due now with a fresh retry sequence (retry_index 0), whatever
 * its status. Refused (undefined) while a dispatcher holds it.
 */
export async function markDeliveryDueNow(db: DbOrTx, id: number, now: string): Promise<WebhookDeliveryRow | undefined> {
  return db
    .updateTable("webhook_deliveries")
    .set({ status: "pending", retry_index: 0, next_attempt_at: now, updated_at: now })
    .where("id", "=", id)
    .where((w) => w.or([w("lease_until", "is", null), w("lease_until", "<=", now)]))
    .returningAll()
    .executeTakeFirst();
}

/** Ids of failed deliveries created at or after `since` (optionally of one company). */
export async function failedDeliveryIdsSince(db: DbOrTx, since: string, companyId?: number): Promise<number[]> {
  let q = db.selectFrom("webhook_deliveries").select("id").where("status", "=", "failed").where("created_at", ">=", since);
  if (companyId !== undefined) q = q.where("company_id", "=", companyId);
  return (await q.orderBy("id").execute()).map((r) => r.id);
}

/** A removed endpoint's unsent deliveries end as failed, with the reason, instead of waiting forever. */
export async function failUnsentDeliveriesOfEndpoint(db: DbOrTx, endpointId: number, reason: string, at: string): Promise<number> {
  const r = await db
    .updateTable("webhook_deliveries")
    .set({ status: "failed", last_error: reason, next_attempt_at: null, updated_at: at })
    .where("endpoint_id", "=", endpointId)
    .where("status", "in", SENDABLE)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
