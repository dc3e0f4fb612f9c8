import { CompiledQuery } from "kysely";
import { isAppError } from "../errors.js";
import type { Db, Tx } from "./db.js";

/**
 * Group commit: units of work submitted while the previous batch is being
 * written (or within the same event-loop turn) share one BEGIN IMMEDIATE …
 * COMMIT. Under WAL the commit is most of the cost of a small write
 * transaction (writing the changed pages to the log), so N requests in one
 * commit cost little more than one.
 *
 * Guarantees kept:
 * - a submitter's promise settles only after the COMMIT that contains its work
 *   (or after that work was rolled back), never before;
 * - each unit runs under its own SAVEPOINT: a unit that throws is rolled back
 *   alone and only its submitter sees the error; its batch-mates commit;
 * - if the batch transaction itself fails (BEGIN, a ROLLBACK TO that SQLite
 *   refused because it had already aborted the transaction, COMMIT), nothing of
 *   it was committed, and every unit is retried in a transaction of its own —
 *   except when the lock could not be had in time (database_busy): then every
 *   unit fails with it at once.
 * Units run in submission order, so a later unit sees an earlier one's rows
 * (a duplicate within one batch behaves as across batches).
 */
export interface GroupCommit<I, R> {
  submit(input: I): Promise<R>;
  /** Batches taken from the queue so far (a lone unit counts as one; fallback transactions are not counted). */
  readonly batches: number;
}

/** Bounds how long the last unit of a batch waits for the ones before it. */
export const MAX_BATCH = 128;

const SAVEPOINT = CompiledQuery.raw("savepoint group_unit");
const ROLLBACK_TO = CompiledQuery.raw("rollback to savepoint group_unit");
const RELEASE = CompiledQuery.raw("release savepoint group_unit");

interface Pending<I, R> {
  input: I;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export function createGroupCommit<I, R>(db: Db, unit: (trx: Tx, input: I) => Promise<R>): GroupCommit<I, R> {
  let queue: Pending<I, R>[] = [];
  let scheduled = false;
  let running = false;
  let batches = 0;

  const schedule = () => {
    if (scheduled || running || queue.length === 0) return;
    scheduled = true;
    // setImmediate rather than a microtask: requests whose bytes arrived in the
    // same I/O poll all reach submit() before the batch starts.
    setImmediate(flush);
  };

  async function flush(): Promise<void> {
    scheduled = false;
    running = true;
    const batch = queue.length <= MAX_BATCH ? queue : queue.slice(0, MAX_BATCH);
    queue = queue.length <= MAX_BATCH ? [] : queue.slice(MAX_BATCH);
    try {
      if (batch.length === 1) {
        await runAlone(db, unit, batch[0]);
        batches++;
      } else await runBatch(batch);
    } finally {
      running = false;
      schedule();
    }
  }

  async function runBatch(batch: Pending<I, R>[]): Promise<void> {
    let outcomes: Outcome<R>[];
    try {
      outcomes = await db.transaction().execute((trx) => runInSavepoints(trx, unit, batch));
      batches++;
    } catch (e) {
      await recoverBatch(db, unit, batch, e);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
  }

  return {
    submit(input: I): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        schedule();
      });
    },
    get batches() {
      return batches;
    },
  };
}

async function runAlone<I, R>(db: Db, unit: (trx: Tx, input: I) => Promise<R>, p: Pending<I, R>): Promise<void> {
  try {
    p.resolve(await db.transaction().execute((trx) => unit(trx, p.input)));
  } catch (e) {
    p.reject(e);
  }
}

/** Each unit behind its own savepoint, so one failing unit does not undo the others of the batch. */
async function runInSavepoints<I, R>(trx: Tx, unit: (trx: Tx, input: I) => Promise<R>, batch: Pending<I, R>[]): Promise<Outcome<R>[]> {
  const out: Outcome<R>[] = [];
  for (const p of batch) {
    await trx.executeQuery(SAVEPOINT);
    try {
      const value = await unit(trx, p.input);
      await trx.executeQuery(RELEASE);
      out.push({ ok: true, value });
    } catch (error) {
      // Throws (and so fails the batch) if SQLite already aborted the whole transaction.
      await trx.executeQuery(ROLLBACK_TO);
      await trx.executeQuery(RELEASE);
      out.push({ ok: false, error });
    }
  }
  return out;
}

/** The batch's transaction failed as a whole: nothing of it was committed. */
async function recoverBatch<I, R>(db: Db, unit: (trx: Tx, input: I) => Promise<R>, batch: Pending<I, R>[], e: unknown): Promise<void> {
  if (isAppError(e) && e.code === "database_busy") {
    // Another process holds the lock: one transaction each would only wait out the same lock again, one after another.
    for (const p of batch) p.reject(e);
    return;
  }
  // Give every unit its own transaction.
  for (const p of batch) await runAlone(db, unit, p);
}
