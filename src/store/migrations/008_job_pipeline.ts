import type { Kysely, Migration } from "kysely";

/**
 * Jobs record the pipeline they need, so a worker claims only jobs it can run
 * (a placeholder `serve` and a live `submit --wait` on one data dir no longer
 * take each other's jobs). Jobs queued before this migration keep the old
 * behaviour: any worker may run them.
 */
export const m008_job_pipeline: Migration = {
  async up(db: Kysely<any>) {
    // placeholder | live | any ("any": the call's transcript is imported, so only an analyzer is needed).
    await db.schema
      .alterTable("jobs")
      .addColumn("pipeline", "text", (c) => c.notNull().defaultTo("any"))
      .execute();
  },
};
