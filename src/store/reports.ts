import type { DbOrTx, Tx } from "./db.js";
import type { ReportRow } from "./schema.js";

/** Stores the next version of a call's report. The caller validated it and holds the transaction that marks the call ready. */
export async function insertReport(trx: Tx, input: { callId: number; analyzer: string; reportJson: string; createdAt: string }): Promise<ReportRow> {
  const last = await trx
    .selectFrom("reports")
    .select((eb) => eb.fn.max("version").as("v"))
    .where("call_id", "=", input.callId)
    .executeTakeFirst();
  const version = Number(last?.v ?? 0) + 1;
  return trx
    .insertInto("reports")
    .values({ call_id: input.callId, version, analyzer: input.analyzer, report: input.reportJson, created_at: input.createdAt })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function latestReport(db: DbOrTx, callId: number): Promise<ReportRow | undefined> {
  return db.selectFrom("reports").selectAll().where("call_id", "=", callId).orderBy("version", "desc").limit(1).executeTakeFirst();
}

export async function listReports(db: DbOrTx, callId: number): Promise<ReportRow[]> {
  return db.selectFrom("reports").selectAll().where("call_id", "=", callId).orderBy("version").execute();
}
