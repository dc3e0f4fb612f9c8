import type { DbOrTx } from "../store/db.js";
import type { JobRow } from "../store/schema.js";
import { isoNow } from "../time.js";

/**
 * Takes the next due job for `workerId` with a lease until `now + leaseMs`.
 * One UPDATE ... WHERE id = (SELECT ...) RETURNING statement: SQLite runs it
 * under its single write lock, so two workers — even in two processes on one
 * data dir — can never both take the same job. Highest priority first, then
 * oldest run_at, then id. (PostgreSQL would add FOR UPDATE SKIP LOCKED to the
 * sub-select; the shape stays the same.)
 */
export async function claimJob(db: DbOrTx, input: { workerId: string; leaseMs: number; now: Date; kind?: string }): Promise<JobRow | undefined> {
  const now = isoNow(input.now);
  const until = isoNow(new Date(input.now.getTime() + input.leaseMs));
  let next = db.selectFrom("jobs").select("id").where("status", "=", "queued").where("run_at", "<=", now);
  if (input.kind) next = next.where("kind", "=", input.kind);
  return db
    .updateTable("jobs")
    .set((eb) => ({
      status: "running",
      locked_by: input.workerId,
      locked_until: until,
      attempts: eb("attempts", "+", 1),
      progress: null,
      stage: null,
      updated_at: now,
    }))
    .where("id", "=", (eb) => eb.selectFrom(next.orderBy("priority", "desc").orderBy("run_at").orderBy("id").limit(1).as("n")).select("n.id"))
    .where("status", "=", "queued")
    .returningAll()
    .executeTakeFirst();
}
