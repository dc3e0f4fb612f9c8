import { sql, type Kysely, type Migration } from "kysely";
import { isPostgres } from "../dialect.js";

/**
 * PostgreSQL's `real` is 4 bytes, SQLite's 8: `call_console.talk_ratio` held fewer digits on
 * PostgreSQL than the same call on SQLite, so `copy-data` could not verify the table by checksum.
 * Double precision on both. SQLite needs nothing.
 */
export const m013_console_ratio_double: Migration = {
  async up(db: Kysely<any>) {
    if (!isPostgres(db)) return;
    await sql`ALTER TABLE call_console ALTER COLUMN talk_ratio TYPE double precision`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION call_console_transcript() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_console (call_id, talk_ratio) VALUES (NEW.call_id, ((NEW.metrics::json)->>'talk_ratio')::double precision)
        ON CONFLICT (call_id) DO UPDATE SET talk_ratio = excluded.talk_ratio;
        RETURN NEW;
      END $$`.execute(db);
  },
};
