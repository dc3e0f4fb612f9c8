import { sql, type Kysely, type Migration } from "kysely";

/**
 * Webhook fan-out without a cursor: each event is written with a row here in
 * the same transaction, and the fan-out deletes the rows it has turned into
 * deliveries. A cursor over events.id is only correct while ids become visible
 * in id order (SQLite's single writer); on PostgreSQL two transactions can
 * commit ids out of order, and a cursor that moved past the later one would
 * never see the earlier. A queue row is visible exactly when its event is.
 * No foreign key: erasure may delete an event still waiting here, and the
 * fan-out drops such rows.
 */
export const m012_fanout_queue: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("webhook_fanout_queue")
      .addColumn("event_row_id", "integer", (c) => c.primaryKey())
      .execute();
    // Events recorded before this migration and not yet fanned out (beyond the old cursor) are queued now.
    await sql`INSERT INTO webhook_fanout_queue (event_row_id)
      SELECT e.id FROM events e WHERE e.id > COALESCE((SELECT last_event_row_id FROM webhook_fanout_cursor WHERE name = 'events'), 0)`.execute(db);
  },
};
