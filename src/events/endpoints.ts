import { randomBase62 } from "../auth/random.js";
import { AppError } from "../errors.js";
import { getCompany } from "../store/companies.js";
import type { Db, DbOrTx } from "../store/db.js";
import type { WebhookEndpointRow } from "../store/schema.js";
import { failUnsentDeliveriesOfEndpoint } from "../store/webhook-deliveries.js";
import {
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  markWebhookEndpointRemoved,
  setWebhookEndpointEnabled,
  setWebhookEndpointSecret,
} from "../store/webhook-endpoints.js";
import { isoNow } from "../time.js";
import { EVENT_TYPES, isEventType, type EventType } from "./types.js";

export const WEBHOOK_SECRET_PREFIX = "whsec_";
export const WEBHOOK_SECRET_LENGTH = 40;
/** After a rotation the old secret keeps signing this long, so receivers can switch without losing events. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** An endpoint as listed: never its secrets. */
export interface WebhookEndpointView {
  id: number;
  company_id: number;
  url: string;
  events: EventType[];
  enabled: boolean;
  disabled_reason: string | null;
  /** Until when the previous secret still signs (after a rotation), else null. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  /** Shown once, at creation or rotation. */
  secret: string;
}

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBase62(WEBHOOK_SECRET_LENGTH);
}

export function toEndpointView(row: WebhookEndpointRow, now: Date): WebhookEndpointView {
  const overlap = row.previous_secret_expires_at && Date.parse(row.previous_secret_expires_at) > now.getTime() ? row.previous_secret_expires_at : null;
  return {
    id: row.id,
    company_id: row.company_id,
    url: row.url,
    events: subscribedEvents(row),
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: overlap,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function subscribedEvents(row: Pick<WebhookEndpointRow, "events">): EventType[] {
  return row.events === null ? [...EVENT_TYPES] : (row.events.split(",").filter(isEventType) as EventType[]);
}

/** The secrets that sign a request now: the current one first, then the previous one during the overlap. */
export function signingSecrets(row: Pick<WebhookEndpointRow, "secret" | "previous_secret" | "previous_secret_expires_at">, now: Date): string[] {
  const out = [row.secret];
  if (row.previous_secret && row.previous_secret_expires_at && Date.parse(row.previous_secret_expires_at) > now.getTime()) out.push(row.previous_secret);
  return out;
}

export function parseWebhookUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new AppError("validation_failed", `invalid webhook URL "${raw}" (expected an absolute http:// or https:// URL)`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new AppError("validation_failed", `invalid webhook URL "${raw}" (only http:// and https:// are supported)`);
  }
  if (u.username || u.password) throw new AppError("validation_failed", `invalid webhook URL: credentials in the URL are not allowed`);
  return u.toString();
}

/** Comma-separated event names; every name must be one of spec 6.1's nine. Null means all. */
export function parseEventList(raw: string | undefined): EventType[] | null {
  if (raw === undefined) return null;
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = names.filter((n) => !isEventType(n));
  if (bad.length > 0) throw new AppError("validation_failed", `unknown event ${bad.map((b) => `"${b}"`).join(", ")} (known: ${EVENT_TYPES.join(", ")})`);
  if (names.length === 0) throw new AppError("validation_failed", `no event given (known: ${EVENT_TYPES.join(", ")})`);
  const unique = [...new Set(names)] as EventType[];
  return unique.length === EVENT_TYPES.length ? null : EVENT_TYPES.filter((t) => unique.includes(t));
}

export async function createWebhookEndpoint(
  db: DbOrTx,
  input: { companyId: number; url: string; events?: EventType[] | null },
  now: Date = new Date(),
): Promise<WebhookEndpointWithSecret> {
  const url = parseWebhookUrl(input.url);
  const company = await getCompany(db, input.companyId);
  if (!company) throw new AppError("not_found", `company ${input.companyId} not found`);
  const secret = newWebhookSecret();
  const events = input.events ?? null;
  const row = await insertWebhookEndpoint(db, {
    company_id: company.id,
    url,
    events: events === null ? null : events.join(","),
    secret,
    created_at: isoNow(now),
  });
  return { ...toEndpointView(row, now), secret };
}

export async function listEndpointViews(db: DbOrTx, companyId: number | undefined, now: Date = new Date()): Promise<WebhookEndpointView[]> {
  if (companyId !== undefined && !(await getCompany(db, companyId))) throw new AppError("not_found", `company ${companyId} not found`);
  return (await listWebhookEndpoints(db, companyId)).map((r) => toEndpointView(r, now));
}

export async function requireEndpoint(db: DbOrTx, id: number): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(db, id);
  if (!row) throw new AppError("not_found", `webhook endpoint ${id} not found`);
  return row;
}

/** The endpoint stops receiving; its unsent deliveries end as failed; its delivery log stays readable. */
export async function removeWebhookEndpoint(db: Db, id: number, now: Date = new Date()): Promise<{ endpoint: WebhookEndpointView; cancelled: number }> {
  return db.transaction().execute(async (trx) => {
    const at = isoNow(now);
    const row = await markWebhookEndpointRemoved(trx, id, at);
    if (!row) throw new AppError("not_found", `webhook endpoint ${id} not found`);
    const cancelled = await failUnsentDeliveriesOfEndpoint(trx, id, "endpoint removed", at);
    return { endpoint: toEndpointView(row, now), cancelled };
  });
}

export async function rotateWebhookSecret(db: Db, id: number, now: Date = new Date()): Promise<WebhookEndpointWithSecret> {
  return db.transaction().execute(async (trx) => {
    const current = await requireEndpoint(trx, id);
    const secret = newWebhookSecret();
    const row = await setWebhookEndpointSecret(
      trx,
      id,
      { secret, previous_secret: current.secret, previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString() },
      isoNow(now),
    );
    return { ...toEndpointView(row!, now), secret };
  });
}

export async function setEndpointEnabled(
  db: DbOrTx,
  id: number,
  enabled: boolean,
  reason: string | null,
  now: Date = new Date(),
): Promise<WebhookEndpointView> {
  const row = await setWebhookEndpointEnabled(db, id, enabled, reason, isoNow(now));
  if (!row) throw new AppError("not_found", `webhook endpoint ${id} not found`);
  return toEndpointView(row, now);
}
