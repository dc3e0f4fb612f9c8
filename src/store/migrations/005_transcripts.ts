import { addIdColumn } from "./columns.js";
import type { Kysely, Migration } from "kysely";

/** Transcripts (from the engine or imported), kept per call; the latest one is used. */
export const m005_transcripts: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable("transcripts"))
      .addColumn("call_id", "integer", (c) => c.notNull().references("calls.id"))
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("language", "text")
      .addColumn("model", "text")
      .addColumn("segments", "text", (c) => c.notNull())
      .addColumn("metrics", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("transcripts_call").on("transcripts").columns(["call_id", "id"]).execute();
  },
};
