import { appendAuditEntry } from "../store/audit-log.js";
import type { DbOrTx } from "../store/db.js";
import type { AuditLogRow } from "../store/schema.js";
import { isoNow } from "../time.js";

/** Who did it: an API key (its public id), the server's CLI, the service itself (retention), later a console user. */
export interface Actor {
  type: "api_key" | "cli" | "system" | "user";
  id: string;
  /** X-Request-Id of the HTTP request, when there was one. */
  requestId?: string | null;
}

export const CLI_ACTOR: Actor = { type: "cli", id: "cli" };
export const RETENTION_ACTOR: Actor = { type: "system", id: "retention" };

export const AUDIT_ACTIONS = [
  "transcript.read",
  "report.read",
  "audio.read",
  "call.delete",
  "calls.purge",
  "retention.run",
  "retention.audio_expired",
  "retention.transcript_expired",
  "api_key.create",
  "api_key.revoke",
  "webhook.add",
  "webhook.remove",
  "webhook.rotate_secret",
  "webhook.enable",
  "webhook.disable",
  "company.update",
  "backup.create",
  "backup.restore",
  "user.create",
  "user.disable",
  "user.reset_password",
  "user.login",
  "user.login_failed",
  "alert.review",
  "call.review",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Appends one entry. `detail` takes ids and counts only: the audit log must
 * never hold a call's words, since it outlives the call's erasure.
 */
export async function audit(
  db: DbOrTx,
  actor: Actor,
  action: AuditAction,
  target: { companyId?: number | null; callId?: number | null; detail?: Record<string, string | number | boolean | null | string[]> } = {},
  now: Date = new Date(),
): Promise<void> {
  await appendAuditEntry(db, {
    at: isoNow(now),
    actor_type: actor.type,
    actor: actor.id,
    action,
    company_id: target.companyId ?? null,
    call_id: target.callId ?? null,
    request_id: actor.requestId ?? null,
    detail: target.detail ? JSON.stringify(target.detail) : null,
  });
}

/** An audit row as listed: its detail parsed. */
export type AuditEntryView = Omit<AuditLogRow, "detail"> & { detail: Record<string, unknown> | null };

export function toAuditView(row: AuditLogRow): AuditEntryView {
  return { ...row, detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null };
}
