import { isPostgres } from "../dialect.js";
import { addIdColumn } from "./columns.js";
import { sql, type Kysely, type Migration } from "kysely";

/**
 * The audit trail: who read or erased what, when. Append-only: the triggers
 * refuse UPDATE and DELETE, so not even a bug in callreview can rewrite it.
 * call_id is a plain integer, not a foreign key: entries outlive the call.
 */
export const m010_lifecycle: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable("audit_log"))
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
    if (isPostgres(db)) {
      // The same refusal in PostgreSQL's trigger syntax (a trigger calls a function).
      await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`.execute(
        db,
      );
      await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
      await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
      // TRUNCATE skips row triggers; refuse it too.
      await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(db);
    } else {
      await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
      await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
    }
    // Retention reads calls by age per company.
    await db.schema.createIndex("calls_company_created").on("calls").columns(["company_id", "created_at"]).execute();
  },
};
