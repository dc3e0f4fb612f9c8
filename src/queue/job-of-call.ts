import type { DbOrTx } from "../store/db.js";
import type { JobRow } from "../store/schema.js";

/** The newest job of a call (what `submit --wait` watches). */
export async function latestJobOfCall(db: DbOrTx, callId: number): Promise<JobRow | undefined> {
  return db.selectFrom("jobs").selectAll().where("call_id", "=", callId).orderBy("id", "desc").limit(1).executeTakeFirst();
}

/** Queued jobs due now or later, and running ones: is there anything left to do? */
export async function countLiveJobs(db: DbOrTx): Promise<number> {
  const r = await db.selectFrom("jobs").select((eb) => eb.fn.countAll<number>().as("n")).where("status", "in", ["queued", "running"]).executeTakeFirst();
  return Number(r?.n ?? 0);
}
