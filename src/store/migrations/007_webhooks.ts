import { addIdColumn } from "./columns.js";
import type { Kysely, Migration } from "kysely";

/**
 * Outbound webhooks: endpoints per company, one delivery per (endpoint, event),
 * every attempt logged, and the fan-out cursor over the events outbox.
 */
export const m007_webhooks: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable("webhook_endpoints"))
      .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id"))
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("events", "text")
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("previous_secret", "text")
      .addColumn("previous_secret_expires_at", "text")
      .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("disabled_reason", "text")
      .addColumn("after_event_id", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("removed_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("webhook_endpoints_company").on("webhook_endpoints").columns(["company_id", "id"]).execute();

    await addIdColumn(db, db.schema.createTable("webhook_deliveries"))
      .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id"))
      .addColumn("endpoint_id", "integer", (c) => c.notNull().references("webhook_endpoints.id"))
      .addColumn("event_row_id", "integer", (c) => c.notNull().references("events.id"))
      .addColumn("event_id", "text", (c) => c.notNull())
      .addColumn("event_type", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("retry_index", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("response_status", "integer")
      .addColumn("last_error", "text")
      .addColumn("next_attempt_at", "text")
      .addColumn("lease_token", "text")
      .addColumn("lease_until", "text")
      .addColumn("delivered_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    // The fan-out's last line of defence: an event reaches an endpoint at most once.
    await db.schema.createIndex("webhook_deliveries_once").on("webhook_deliveries").columns(["endpoint_id", "event_row_id"]).unique().execute();
    // next_attempt_at is set exactly while a delivery is sendable (pending / retrying), so this
    // index hands out an endpoint's due deliveries in order without sorting or scanning sent ones.
    await db.schema.createIndex("webhook_deliveries_due").on("webhook_deliveries").columns(["endpoint_id", "next_attempt_at"]).execute();
    await db.schema.createIndex("webhook_deliveries_company").on("webhook_deliveries").columns(["company_id", "id"]).execute();

    await addIdColumn(db, db.schema.createTable("webhook_attempts"))
      .addColumn("delivery_id", "integer", (c) => c.notNull().references("webhook_deliveries.id"))
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("trigger", "text", (c) => c.notNull())
      .addColumn("started_at", "text", (c) => c.notNull())
      .addColumn("signature_timestamp", "integer", (c) => c.notNull())
      .addColumn("response_status", "integer")
      .addColumn("error", "text")
      .addColumn("duration_ms", "integer", (c) => c.notNull())
      .addColumn("next_attempt_at", "text")
      .execute();
    await db.schema.createIndex("webhook_attempts_delivery").on("webhook_attempts").columns(["delivery_id", "id"]).execute();

    await db.schema
      .createTable("webhook_fanout_cursor")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("last_event_row_id", "integer", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.insertInto("webhook_fanout_cursor").values({ name: "events", last_event_row_id: 0, updated_at: new Date().toISOString() }).execute();
  },
};
