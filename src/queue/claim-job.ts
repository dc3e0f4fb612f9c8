import { sql } from "kysely";
import type { Db, DbOrTx, Tx } from "../store/db.js";
import { isPostgres } from "../store/dialect.js";
import type { JobRow } from "../store/schema.js";
import { isoNow } from "../time.js";
import type { JobPipeline } from "./job-pipeline.js";

export interface ClaimInput {
  workerId: string;
  leaseMs: number;
  now: Date;
  kind?: string;
  /** Only jobs asking for one of these pipelines; all jobs when unset. */
  pipelines?: readonly JobPipeline[];
  /** Skip the jobs of a company that already has this many running (0 or unset: no cap). */
  companyMaxInflight?: number;
}

/**
 * Takes the next due job for `workerId` with a lease until `now + leaseMs`.
 * One UPDATE ... WHERE id = (SELECT ...) RETURNING statement. Highest priority
 * first, then oldest run_at, then id.
 * - SQLite runs it under its single write lock, so two workers — even in two
 *   processes on one data dir — can never both take the same job, and the
 *   per-company count it checks cannot change between the check and the take.
 * - PostgreSQL: the sub-select locks the row it picks FOR UPDATE SKIP LOCKED,
 *   so concurrent claimers pass over each other's candidates instead of
 *   waiting for them. With a per-company cap, the count and the take must not
 *   interleave with another claimer's: the claim then holds one transaction-level
 *   advisory lock (claims are short, so serialising them costs little; running
 *   jobs do not hold it).
 */
export async function claimJob(db: DbOrTx, input: ClaimInput): Promise<JobRow | undefined> {
  if (isPostgres(db) && (input.companyMaxInflight ?? 0) > 0) {
    if (db.isTransaction) return claimUnderLock(db as Tx, input);
    return (db as Db).transaction().execute((trx) => claimUnderLock(trx, input));
  }
  return claimStatement(db, input);
}

/** Any number fixed for the whole product: the advisory-lock key of the claim with a company cap. */
const CLAIM_LOCK_KEY = 7_341_001;

async function claimUnderLock(trx: Tx, input: ClaimInput): Promise<JobRow | undefined> {
  await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`.execute(trx);
  return claimStatement(trx, input);
}

async function claimStatement(db: DbOrTx, input: ClaimInput): Promise<JobRow | undefined> {
  const now = isoNow(input.now);
  const until = isoNow(new Date(input.now.getTime() + input.leaseMs));
  let next = db.selectFrom("jobs as j").select("j.id").where("j.status", "=", "queued").where("j.run_at", "<=", now);
  if (input.kind) next = next.where("j.kind", "=", input.kind);
  if (input.pipelines) next = next.where("j.pipeline", "in", [...input.pipelines]);
  const cap = input.companyMaxInflight ?? 0;
  if (cap > 0) {
    // Running jobs are few (at most the workers of all processes), so this count stays cheap.
    next = next.innerJoin("calls as c", "c.id", "j.call_id").where(
      (eb) =>
        eb
          .selectFrom("jobs as r")
          .innerJoin("calls as rc", "rc.id", "r.call_id")
          .select((e) => e.fn.countAll().as("n"))
          .where("r.status", "=", "running")
          .whereRef("rc.company_id", "=", "c.company_id"),
      "<",
      cap,
    );
  }
  let pick = next.orderBy("j.priority", "desc").orderBy("j.run_at").orderBy("j.id").limit(1);
  if (isPostgres(db)) pick = pick.forUpdate("j").skipLocked();
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
    .where("id", "=", (eb) => eb.selectFrom(pick.as("n")).select("n.id"))
    .where("status", "=", "queued")
    .returningAll()
    .executeTakeFirst();
}
