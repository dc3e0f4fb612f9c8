import type { DbOrTx } from "./db.js";
import type { WebhookEndpointRow } from "./schema.js";

export async function insertWebhookEndpoint(
  db: DbOrTx,
  row: { company_id: number; url: string; events: string | null; secret: string; created_at: string },
): Promise<WebhookEndpointRow> {
  // after_event_id: the endpoint receives only events recorded after it was added.
  const max = await db
    .selectFrom("events")
    .select((eb) => eb.fn.max("id").as("max"))
    .executeTakeFirst();
  return db
    .insertInto("webhook_endpoints")
    .values({ ...row, after_event_id: Number(max?.max ?? 0), enabled: 1, updated_at: row.created_at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removed endpoints are kept (their deliveries stay readable) but never returned here. */
export async function findWebhookEndpoint(db: DbOrTx, id: number): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).where("removed_at", "is", null).executeTakeFirst();
}

export async function listWebhookEndpoints(db: DbOrTx, companyId?: number): Promise<WebhookEndpointRow[]> {
  let q = db.selectFrom("webhook_endpoints").selectAll().where("removed_at", "is", null);
  if (companyId !== undefined) q = q.where("company_id", "=", companyId);
  return q.orderBy("id").execute();
}

/** Endpoints of the companies given that may receive new events. */
export async function activeEndpointsOf(db: DbOrTx, companyIds: number[]): Promise<WebhookEndpointRow[]> {
  if (companyIds.length === 0) return [];
  return db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("company_id", "in", companyIds)
    .where("removed_at", "is", null)
    .where("enabled", "=", 1)
    .execute();
}

export async function markWebhookEndpointRemoved(db: DbOrTx, id: number, at: string): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable("webhook_endpoints")
    .set({ removed_at: at, updated_at: at })
    .where("id", "=", id)
    .where("removed_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}

export async function setWebhookEndpointSecret(
  db: DbOrTx,
  id: number,
  patch: { secret: string; previous_secret: string; previous_secret_expires_at: string },
  at: string,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable("webhook_endpoints")
    .set({ ...patch, updated_at: at })
    .where("id", "=", id)
    .where("removed_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}

export async function setWebhookEndpointEnabled(
  db: DbOrTx,
  id: number,
  enabled: boolean,
  reason: string | null,
  at: string,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable("webhook_endpoints")
    .set({ enabled: enabled ? 1 : 0, disabled_reason: enabled ? null : reason, updated_at: at })
    .where("id", "=", id)
    .where("removed_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}
