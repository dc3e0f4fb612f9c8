import type { DbOrTx } from "./db.js";
import type { CallRow } from "./schema.js";
import type { ProcessingStatus } from "./states.js";

/** Every company's calls for an admin on the server, newest first, optionally narrowed by company and processing status. */
export async function listCallsForAdmin(db: DbOrTx, filter: { companyId?: number; status?: ProcessingStatus; limit: number }): Promise<CallRow[]> {
  let q = db.selectFrom("calls").selectAll();
  if (filter.companyId !== undefined) q = q.where("company_id", "=", filter.companyId);
  if (filter.status !== undefined) q = q.where("processing_status", "=", filter.status);
  return q.orderBy("id", "desc").limit(filter.limit).execute();
}
