import type { Kysely, Migration } from "kysely";

/**
 * Egress hardening: a short, client-safe detail next to a call's failure_reason,
 * and webhook attempts written before they are sent (so a crash mid-send still counts).
 */
export const m009_egress: Migration = {
  async up(db: Kysely<any>) {
    // E.g. "HTTP 404", "timed out", "blocked by download policy"; null when there is nothing to add.
    await db.schema.alterTable("calls").addColumn("failure_detail", "text").execute();
    // 1 from the moment the attempt is claimed until its result is written; a claim that finds
    // a 1 left behind knows the process sending it died, and marks the attempt lost.
    await db.schema
      .alterTable("webhook_attempts")
      .addColumn("in_flight", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
