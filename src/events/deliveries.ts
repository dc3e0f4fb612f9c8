import { AppError } from "../errors.js";
import { getCompany } from "../store/companies.js";
import type { DbOrTx } from "../store/db.js";
import type { WebhookAttemptRow, WebhookDeliveryRow } from "../store/schema.js";
import {
  DELIVERY_STATUSES,
  failedDeliveryIdsSince,
  getDelivery,
  listAttempts,
  listDeliveries,
  markDeliveryDueNow,
  type DeliveryStatus,
} from "../store/webhook-deliveries.js";
import { isoNow } from "../time.js";

/** Spec 2.5 WebhookDelivery, as GET /webhooks/events shows it. */
export interface WebhookDeliveryResource {
  id: number;
  event_type: string;
  status: string;
  response_status: number | null;
  attempts: number;
  created_at: string;
}

/** What the CLI shows an admin: the resource plus where it goes, why it failed and when it is tried next. */
export interface DeliveryDetail extends WebhookDeliveryResource {
  company_id: number;
  endpoint_id: number;
  event_id: string;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  updated_at: string;
}

export function toDeliveryResource(row: WebhookDeliveryRow): WebhookDeliveryResource {
  return {
    id: row.id,
    event_type: row.event_type,
    status: row.status,
    response_status: row.response_status,
    attempts: row.attempts,
    created_at: row.created_at,
  };
}

export function toDeliveryDetail(row: WebhookDeliveryRow): DeliveryDetail {
  return {
    ...toDeliveryResource(row),
    company_id: row.company_id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at,
    delivered_at: row.delivered_at,
    updated_at: row.updated_at,
  };
}

export function isDeliveryStatus(s: string): s is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly string[]).includes(s);
}

export function parseDeliveryStatus(s: string): DeliveryStatus {
  if (!isDeliveryStatus(s)) throw new AppError("validation_failed", `invalid status "${s}" (expected one of ${DELIVERY_STATUSES.join(", ")})`);
  return s;
}

export async function listDeliveryDetails(db: DbOrTx, opts: { companyId?: number; status?: DeliveryStatus; limit: number }): Promise<DeliveryDetail[]> {
  if (opts.companyId !== undefined && !(await getCompany(db, opts.companyId))) throw new AppError("not_found", `company ${opts.companyId} not found`);
  return (await listDeliveries(db, opts)).map(toDeliveryDetail);
}

export async function deliveryWithAttempts(db: DbOrTx, id: number): Promise<{ delivery: DeliveryDetail; attempts: WebhookAttemptRow[] }> {
  const row = await getDelivery(db, id);
  if (!row) throw new AppError("not_found", `delivery ${id} not found`);
  return { delivery: toDeliveryDetail(row), attempts: await listAttempts(db, id) };
}

/**
 * Replay = make the delivery due now with a fresh retry sequence. The running
 * dispatcher (in `serve`, possibly another process) sends it on its next pass,
 * signed with a new timestamp and the same event id; if no server runs, it goes
 * out when one starts. Nothing is sent from here, so a replay can never race a
 * dispatcher into sending the same attempt twice.
 */
export async function replayDelivery(db: DbOrTx, id: number, now: Date = new Date()): Promise<DeliveryDetail> {
  const existing = await getDelivery(db, id);
  if (!existing) throw new AppError("not_found", `delivery ${id} not found`);
  const endpoint = await db.selectFrom("webhook_endpoints").select(["removed_at", "enabled"]).where("id", "=", existing.endpoint_id).executeTakeFirst();
  if (!endpoint || endpoint.removed_at)
    throw new AppError("conflict", `delivery ${id} cannot be replayed: its webhook endpoint ${existing.endpoint_id} was removed`);
  const row = await markDeliveryDueNow(db, id, isoNow(now));
  if (!row) throw new AppError("conflict", `delivery ${id} is being sent right now; try again in a moment`);
  return toDeliveryDetail(row);
}

/** Recovery after an outage: every failed delivery created since `since` (of live endpoints) becomes due now. */
export async function replayFailedSince(
  db: DbOrTx,
  since: string,
  opts: { companyId?: number } = {},
  now: Date = new Date(),
): Promise<{ replayed: number[]; skipped: number[] }> {
  if (opts.companyId !== undefined && !(await getCompany(db, opts.companyId))) throw new AppError("not_found", `company ${opts.companyId} not found`);
  const replayed: number[] = [];
  const skipped: number[] = [];
  for (const id of await failedDeliveryIdsSince(db, since, opts.companyId)) {
    try {
      await replayDelivery(db, id, now);
      replayed.push(id);
    } catch (e) {
      if (e instanceof AppError && e.code === "conflict") skipped.push(id);
      else throw e;
    }
  }
  return { replayed, skipped };
}
