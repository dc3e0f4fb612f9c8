import { addIdColumn } from "./columns.js";
import type { Kysely, Migration } from "kysely";

/** Every processing_status change of a call, with its time and reason. */
export const m004_call_history: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable("call_history"))
      .addColumn("call_id", "integer", (c) => c.notNull().references("calls.id"))
      .addColumn("from_status", "text")
      .addColumn("to_status", "text", (c) => c.notNull())
      .addColumn("reason", "text")
      .addColumn("at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("call_history_call").on("call_history").columns(["call_id", "id"]).execute();
  },
};
