import { executeRaw } from "../store/dialect.js";
import type { DbOrTx, Tx } from "../store/db.js";
import type { JobRow } from "../store/schema.js";
import { isoNow } from "../time.js";
import type { JobPipeline } from "./job-pipeline.js";

export const PROCESS_CALL = "process_call";
export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Queues one job for a call. A call has at most one live (queued or running)
 * job of a kind: asking again returns the live one instead of adding a second.
 */
export async function addJob(
  db: DbOrTx,
  input: { callId: number; kind?: string; priority?: number; runAt?: string; maxAttempts?: number; pipeline?: JobPipeline },
  now: Date = new Date(),
): Promise<{ job: JobRow; added: boolean }> {
  const kind = input.kind ?? PROCESS_CALL;
  const live = await db
    .selectFrom("jobs")
    .selectAll()
    .where("call_id", "=", input.callId)
    .where("kind", "=", kind)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirst();
  if (live) return { job: live, added: false };
  const ts = isoNow(now);
  const job = await db
    .insertInto("jobs")
    .values({
      call_id: input.callId,
      kind,
      status: "queued",
      priority: input.priority ?? 0,
      attempts: 0,
      max_attempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      run_at: input.runAt ?? ts,
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: ts,
      updated_at: ts,
      pipeline: input.pipeline ?? "any",
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { job, added: true };
}

/** Exported for the test that runs it against a migrated database (test/store/raw-sql.test.ts). */
export const INSERT_FIRST_JOB =
  `insert into "jobs" ("call_id", "kind", "status", "priority", "attempts", "max_attempts", "run_at", ` +
  `"locked_by", "locked_until", "last_error", "created_at", "updated_at", "pipeline") ` +
  `values (?, ?, 'queued', ?, 0, ?, ?, null, null, null, ?, ?, ?)`;

/**
 * The job of a call inserted in the same transaction: such a call cannot have
 * a live job yet, so addJob's look-up is skipped. Plain SQL (one statement
 * text, served prepared by the driver's cache) because it runs once per
 * accepted call.
 */
export async function insertFirstJob(trx: Tx, input: { callId: number; priority: number; pipeline: JobPipeline }, now: Date = new Date()): Promise<void> {
  const ts = isoNow(now);
  await executeRaw(trx, INSERT_FIRST_JOB, [input.callId, PROCESS_CALL, input.priority, DEFAULT_MAX_ATTEMPTS, ts, ts, ts, input.pipeline]);
}
