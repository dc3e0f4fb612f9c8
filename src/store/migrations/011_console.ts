import { sql, type Kysely, type Migration } from "kysely";
import { POSTGRES_SEARCH_SETUP } from "../search-postgres.js";
import { SQLITE_SEARCH_SETUP } from "../search-sqlite.js";
import { isPostgres } from "../dialect.js";
import { addIdColumn } from "./columns.js";

/**
 * The review console (docs/console.md): users and their sessions, the review
 * state of each call and the decisions on its compliance alerts, and the
 * full-text index of transcripts.
 *
 * call_console keeps per call what the calls page filters on (alert count,
 * review state) in one indexed row, so the list never parses report JSON.
 * Rows follow the call: ON DELETE CASCADE, so erasing a call erases its review.
 */
export const m011_console: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable("users"))
      .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id"))
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("role", "text", (c) => c.notNull())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("failed_logins", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("locked_until", "text")
      .addColumn("disabled_at", "text")
      .addColumn("last_login_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await addIdColumn(db, db.schema.createTable("sessions"))
      // SHA-256 of the cookie value: a stolen database does not hold live cookies.
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("csrf_token", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
    await db.schema
      .createTable("call_console")
      .addColumn("call_id", "integer", (c) => c.primaryKey().references("calls.id").onDelete("cascade"))
      .addColumn("alert_count", "integer", (c) => c.notNull().defaultTo(0))
      // Rep share of talk time (0..1) of the latest transcript: the dashboard averages it without reading transcripts.
      .addColumn("talk_ratio", "real")
      // unreviewed | reviewed
      .addColumn("review_state", "text", (c) => c.notNull().defaultTo("unreviewed"))
      .addColumn("reviewed_by", "integer", (c) => c.references("users.id"))
      .addColumn("reviewed_at", "text")
      .addColumn("review_note", "text")
      .execute();
    await addIdColumn(db, db.schema.createTable("alert_reviews"))
      .addColumn("call_id", "integer", (c) => c.notNull().references("calls.id").onDelete("cascade"))
      .addColumn("report_version", "integer", (c) => c.notNull())
      .addColumn("alert_index", "integer", (c) => c.notNull())
      .addColumn("alert_type", "text", (c) => c.notNull())
      // confirmed | dismissed
      .addColumn("decision", "text", (c) => c.notNull())
      .addColumn("note", "text")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("at", "text", (c) => c.notNull())
      .addUniqueConstraint("alert_reviews_one", ["call_id", "report_version", "alert_index"])
      .execute();
    await db.schema.createIndex("call_console_state").on("call_console").columns(["review_state", "call_id"]).execute();
    await db.schema.createIndex("calls_company_rep").on("calls").columns(["company_id", "rep_name"]).execute();

    if (isPostgres(db)) {
      await postgresTriggers(db);
      return;
    }
    // SQLite only (FTS5 and triggers); the PostgreSQL store carries its own equivalent (postgresTriggers).
    for (const statement of SQLITE_SEARCH_SETUP) await sql.raw(statement).execute(db);
    // SQLite only: a new report refreshes the call's alert count.
    await sql`CREATE TRIGGER call_console_report AFTER INSERT ON reports BEGIN
      INSERT INTO call_console (call_id, alert_count) VALUES (NEW.call_id, coalesce(json_array_length(NEW.report, '$.compliance_alerts'), 0))
      ON CONFLICT (call_id) DO UPDATE SET alert_count = excluded.alert_count;
    END`.execute(db);
    // SQLite only: a new transcript refreshes the call's talk ratio.
    await sql`CREATE TRIGGER call_console_transcript AFTER INSERT ON transcripts BEGIN
      INSERT INTO call_console (call_id, talk_ratio) VALUES (NEW.call_id, json_extract(NEW.metrics, '$.talk_ratio'))
      ON CONFLICT (call_id) DO UPDATE SET talk_ratio = excluded.talk_ratio;
    END`.execute(db);
    await sql`INSERT INTO call_console (call_id, alert_count)
      SELECT r.call_id, coalesce(json_array_length(r.report, '$.compliance_alerts'), 0) FROM reports r
      WHERE r.id = (SELECT max(id) FROM reports x WHERE x.call_id = r.call_id)`.execute(db);
    await sql`INSERT INTO call_console (call_id, talk_ratio)
      SELECT t.call_id, json_extract(t.metrics, '$.talk_ratio') FROM transcripts t
      WHERE t.id = (SELECT max(id) FROM transcripts x WHERE x.call_id = t.call_id)
      ON CONFLICT (call_id) DO UPDATE SET talk_ratio = excluded.talk_ratio`.execute(db);
  },
};

/** The same index and the same per-call columns in PostgreSQL's trigger syntax (a trigger calls a function). */
async function postgresTriggers(db: Kysely<any>): Promise<void> {
  for (const statement of POSTGRES_SEARCH_SETUP) await sql.raw(statement).execute(db);
  await sql`CREATE FUNCTION call_console_report() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO call_console (call_id, alert_count) VALUES (NEW.call_id, coalesce(json_array_length((NEW.report::json)->'compliance_alerts'), 0))
      ON CONFLICT (call_id) DO UPDATE SET alert_count = excluded.alert_count;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER call_console_report AFTER INSERT ON reports FOR EACH ROW EXECUTE FUNCTION call_console_report()`.execute(db);
  await sql`CREATE FUNCTION call_console_transcript() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO call_console (call_id, talk_ratio) VALUES (NEW.call_id, ((NEW.metrics::json)->>'talk_ratio')::real)
      ON CONFLICT (call_id) DO UPDATE SET talk_ratio = excluded.talk_ratio;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER call_console_transcript AFTER INSERT ON transcripts FOR EACH ROW EXECUTE FUNCTION call_console_transcript()`.execute(db);
  await sql`INSERT INTO call_console (call_id, alert_count)
    SELECT r.call_id, coalesce(json_array_length((r.report::json)->'compliance_alerts'), 0) FROM reports r
    WHERE r.id = (SELECT max(id) FROM reports x WHERE x.call_id = r.call_id)`.execute(db);
  await sql`INSERT INTO call_console (call_id, talk_ratio)
    SELECT t.call_id, ((t.metrics::json)->>'talk_ratio')::real FROM transcripts t
    WHERE t.id = (SELECT max(id) FROM transcripts x WHERE x.call_id = t.call_id)
    ON CONFLICT (call_id) DO UPDATE SET talk_ratio = excluded.talk_ratio`.execute(db);
}
