import { AppError } from "../errors.js";
import { getCompany } from "../store/companies.js";
import { audit, type Actor } from "./audit.js";
import { eraseCall, scrub, type EraseDeps } from "./erase-call.js";

export interface PurgeResult {
  company_id: number;
  before: string;
  dry_run: boolean;
  /** Calls erased (or, with dry_run, that would be). */
  call_ids: number[];
  /** Calls a worker held: left alone, named so the operator can run the purge again. */
  skipped_processing: number[];
  /** See ErasedCall.log_emptied; null for a dry run. */
  log_emptied: boolean | null;
}

const BATCH = 100;

/**
 * Erases every call of a company created before `before`, one transaction per
 * call (a long purge never blocks intake for long), then scrubs the log once.
 */
export async function purgeCalls(deps: EraseDeps, input: { companyId: number; before: string; dryRun: boolean; actor: Actor }): Promise<PurgeResult> {
  const db = deps.store.db;
  if (!(await getCompany(db, input.companyId))) throw new AppError("not_found", `company ${input.companyId} not found`);
  const result: PurgeResult = {
    company_id: input.companyId,
    before: input.before,
    dry_run: input.dryRun,
    call_ids: [],
    skipped_processing: [],
    log_emptied: null,
  };
  let afterId = 0;
  for (;;) {
    const ids = (
      await db
        .selectFrom("calls")
        .select("id")
        .where("company_id", "=", input.companyId)
        .where("created_at", "<", input.before)
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(BATCH)
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) break;
    afterId = ids[ids.length - 1];
    for (const id of ids) {
      if (input.dryRun) {
        result.call_ids.push(id);
        continue;
      }
      try {
        await eraseCall(deps, { callId: id, companyId: input.companyId, actor: input.actor, scrub: false });
        result.call_ids.push(id);
      } catch (e) {
        if (e instanceof AppError && e.code === "conflict") result.skipped_processing.push(id);
        else if (!(e instanceof AppError && e.code === "not_found")) throw e;
      }
    }
  }
  if (!input.dryRun) {
    await audit(
      db,
      input.actor,
      "calls.purge",
      {
        companyId: input.companyId,
        detail: { before: input.before, erased: result.call_ids.length, skipped_processing: result.skipped_processing.length },
      },
      deps.clock.now(),
    );
    result.log_emptied = await scrub(deps);
  }
  return result;
}
