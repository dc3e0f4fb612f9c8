import { addIdColumn } from "./columns.js";
import type { Kysely, Migration } from "kysely";

/** Reports, versioned per call: reprocessing adds a version; the API shows the latest. */
export const m003_reports: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable("reports"))
      .addColumn("call_id", "integer", (c) => c.notNull().references("calls.id"))
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("analyzer", "text", (c) => c.notNull())
      .addColumn("report", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("reports_call_version").on("reports").columns(["call_id", "version"]).unique().execute();
  },
};
