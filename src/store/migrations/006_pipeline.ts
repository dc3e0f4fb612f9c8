import { sql, type Kysely, type Migration } from "kysely";

/** Pipeline progress: the worker writes how far the running stage is, so `submit --wait` can show it. */
export const m006_pipeline: Migration = {
  async up(db: Kysely<any>) {
    // 0..100 while a stage reports progress, else null.
    await db.schema.alterTable("jobs").addColumn("progress", "integer").execute();
    // The stage the job is in, as the worker last wrote it (download, transcribe, analyze).
    await db.schema.alterTable("jobs").addColumn("stage", "text").execute();
    await db.schema.createIndex("jobs_lease").on("jobs").columns(["status", "locked_until"]).execute();
    // The claim's exact order (priority DESC, run_at, id), so taking the next job reads one index entry instead of sorting the queue.
    await sql`CREATE INDEX jobs_claim_order ON jobs (status, priority DESC, run_at, id)`.execute(db);
  },
};
