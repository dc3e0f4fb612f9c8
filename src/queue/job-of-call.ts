import type { DbOrTx } from "../store/db.js";
import type { JobRow } from "../store/schema.js";

/** The newest job of a call (what `submit --wait` watches). */
export async function latestJobOfCall(db: DbOrTx, callId: number): Promise<JobRow | undefined> {
  return db.selectFrom("jobs").selectAll().where("call_id", "=", callId).orderBy("id", "desc").limit(1).executeTakeFirst();
}
