import { sql, type Kysely, type Migration } from "kysely";

/**
 * The audit trail: who read or erased what, when. Append-only: the triggers
 * refuse UPDATE and DELETE, so not even a bug in callreview can rewrite it.
 * call_id is a plain integer, not a foreign key: entries outlive the call.
 */
export const m010_lifecycle: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("audit_log")
      .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
      .addColumn("at", "text", (c) => c.notNull())
      .addColumn("actor_type", "text", (c) => c.notNull())
      .addColumn("actor", "text", (c) => c.notNull())
      .addColumn("action", "text", (c) => c.notNull())
      .addColumn("company_id", "integer")
      .addColumn("call_id", "integer")
      .addColumn("request_id", "text")
      .addColumn("detail", "text")
      .execute();
    await db.schema.createIndex("audit_log_company").on("audit_log").columns(["company_id", "id"]).execute();
    await db.schema.createIndex("audit_log_call").on("audit_log").columns(["call_id", "id"]).execute();
    // SQLite trigger syntax; the PostgreSQL store will carry its own equivalent.
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
    // Retention reads calls by age per company.
    await db.schema.createIndex("calls_company_created").on("calls").columns(["company_id", "created_at"]).execute();
  },
};
