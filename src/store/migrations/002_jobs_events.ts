import { addIdColumn } from "./columns.js";
import type { Kysely, Migration } from "kysely";

/** The durable job queue and the transactional event outbox. */
export const m002_jobs_events: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable("jobs"))
      .addColumn("call_id", "integer", (c) => c.notNull().references("calls.id"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("priority", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("max_attempts", "integer", (c) => c.notNull())
      .addColumn("run_at", "text", (c) => c.notNull())
      .addColumn("locked_by", "text")
      .addColumn("locked_until", "text")
      .addColumn("last_error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("jobs_claim").on("jobs").columns(["status", "priority", "run_at", "id"]).execute();
    await db.schema.createIndex("jobs_call").on("jobs").column("call_id").execute();

    await addIdColumn(db, db.schema.createTable("events"))
      .addColumn("event_id", "text", (c) => c.notNull().unique())
      .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id"))
      .addColumn("call_id", "integer", (c) => c.references("calls.id"))
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("events_company").on("events").columns(["company_id", "id"]).execute();
    await db.schema.createIndex("events_call").on("events").columns(["call_id", "id"]).execute();
  },
};
