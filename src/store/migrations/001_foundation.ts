import type { Kysely, Migration } from "kysely";
import { addIdColumn } from "./columns.js";

/** Tenants, their API keys and calls. */
export const m001_foundation: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable("companies"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("low_score_threshold", "integer", (c) => c.notNull().defaultTo(60))
      .addColumn("settings", "text", (c) => c.notNull().defaultTo("{}"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    await addIdColumn(db, db.schema.createTable("api_keys"))
      .addColumn("public_id", "text", (c) => c.notNull().unique())
      .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id"))
      .addColumn("name", "text")
      .addColumn("secret_hash", "text", (c) => c.notNull())
      .addColumn("scopes", "text", (c) => c.notNull())
      .addColumn("expires_at", "text")
      .addColumn("revoked_at", "text")
      .addColumn("last_used_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("api_keys_company").on("api_keys").column("company_id").execute();

    await addIdColumn(db, db.schema.createTable("calls"))
      .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id"))
      .addColumn("external_call_id", "text")
      .addColumn("rep_name", "text")
      .addColumn("rep_email", "text")
      .addColumn("customer_name", "text")
      .addColumn("customer_phone", "text")
      .addColumn("customer_email", "text")
      .addColumn("call_started_at", "text")
      .addColumn("call_ended_at", "text")
      .addColumn("duration_seconds", "integer")
      .addColumn("recording_url", "text")
      .addColumn("source_system", "text", (c) => c.notNull().defaultTo("generic"))
      .addColumn("crm_contact_id", "text")
      .addColumn("crm_deal_id", "text")
      .addColumn("metadata", "text", (c) => c.notNull().defaultTo("{}"))
      .addColumn("raw_payload", "text")
      .addColumn("intake", "text", (c) => c.notNull())
      .addColumn("audio_sha256", "text")
      .addColumn("audio_format", "text")
      .addColumn("audio_bytes", "integer")
      .addColumn("processing_status", "text", (c) => c.notNull().defaultTo("queued"))
      .addColumn("report_status", "text", (c) => c.notNull().defaultTo("pending"))
      .addColumn("overall_score", "integer")
      .addColumn("outcome", "text")
      .addColumn("failure_reason", "text")
      .addColumn("priority", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    // Idempotency is enforced here, not by read-then-write: NULLs are distinct, so calls without an external id never clash.
    await db.schema.createIndex("calls_company_external").on("calls").columns(["company_id", "external_call_id"]).unique().execute();
    await db.schema.createIndex("calls_company_id").on("calls").columns(["company_id", "id"]).execute();
  },
};
