import type { DbOrTx } from "./db.js";
import type { AuditLogRow } from "./schema.js";

export type NewAuditEntry = Omit<AuditLogRow, "id">;

/** The only write the audit log knows: an append. */
export async function appendAuditEntry(db: DbOrTx, entry: NewAuditEntry): Promise<void> {
  await db.insertInto("audit_log").values(entry).execute();
}

export interface AuditFilter {
  companyId?: number;
  callId?: number;
  /** ISO 8601; entries at or after. */
  since?: string;
  limit: number;
}

/** Newest first. */
export async function listAuditEntries(db: DbOrTx, f: AuditFilter): Promise<AuditLogRow[]> {
  let q = db.selectFrom("audit_log").selectAll();
  if (f.companyId !== undefined) q = q.where("company_id", "=", f.companyId);
  if (f.callId !== undefined) q = q.where("call_id", "=", f.callId);
  if (f.since !== undefined) q = q.where("at", ">=", f.since);
  return q.orderBy("id", "desc").limit(f.limit).execute();
}
