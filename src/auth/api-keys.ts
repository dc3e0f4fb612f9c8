import { createHash, timingSafeEqual } from "node:crypto";
import { AppError, isAppError } from "../errors.js";
import { getCompany } from "../store/companies.js";
import type { DbOrTx } from "../store/db.js";
import { findApiKeyByPublicId, insertApiKey, listApiKeys, revokeApiKey, touchApiKey } from "../store/api-keys.js";
import type { ApiKeyRow } from "../store/schema.js";
import { isoNow } from "../time.js";
import { randomBase62 } from "./random.js";
import { DEFAULT_SCOPES, type Scope } from "./scopes.js";

/**
 * API keys: `cc_<public_id>_<secret>`, both base62. Only a SHA-256 of the secret
 * is stored; a high-entropy secret needs no slow hash, and SHA-256 keeps each
 * request cheap. The secret leaves this module once, in the creation result.
 */
export const PUBLIC_ID_LENGTH = 12;
export const SECRET_LENGTH = 40;
const KEY_PATTERN = /^cc_([0-9A-Za-z]{8,32})_([0-9A-Za-z]{32,128})$/;

export interface ApiKeyView {
  public_id: string;
  company_id: number;
  name: string | null;
  scopes: Scope[];
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface CreatedApiKey extends ApiKeyView {
  /** The full key; shown once, never stored. */
  key: string;
}

export type AuthOutcome =
  | { ok: true; key: ApiKeyView & { id: number } }
  | { ok: false; reason: "missing" | "malformed" | "unknown_key" | "wrong_secret" | "expired" | "revoked" };

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    public_id: row.public_id,
    company_id: row.company_id,
    name: row.name,
    scopes: row.scopes.split(",").filter(Boolean) as Scope[],
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
    created_at: row.created_at,
  };
}

export async function createApiKey(
  db: DbOrTx,
  input: { companyId: number; scopes?: Scope[]; expiresAt?: string | null; name?: string | null },
): Promise<CreatedApiKey> {
  const company = await getCompany(db, input.companyId);
  if (!company) throw new AppError("not_found", `company ${input.companyId} not found`);
  const publicId = randomBase62(PUBLIC_ID_LENGTH);
  const secret = randomBase62(SECRET_LENGTH);
  const row = await insertApiKey(db, {
    public_id: publicId,
    company_id: company.id,
    name: input.name ?? null,
    secret_hash: hashSecret(secret),
    scopes: (input.scopes ?? [...DEFAULT_SCOPES]).join(","),
    expires_at: input.expiresAt ?? null,
    created_at: isoNow(),
  });
  return { key: `cc_${publicId}_${secret}`, ...toApiKeyView(row) };
}

export function parseApiKey(key: string): { publicId: string; secret: string } | undefined {
  const m = KEY_PATTERN.exec(key);
  return m ? { publicId: m[1], secret: m[2] } : undefined;
}

/** Each failure is distinct here (for logs and tests); the HTTP layer answers all of them with one 401. */
export async function authenticateApiKey(db: DbOrTx, presented: string | undefined, now: Date = new Date()): Promise<AuthOutcome> {
  if (!presented) return { ok: false, reason: "missing" };
  const parsed = parseApiKey(presented);
  if (!parsed) return { ok: false, reason: "malformed" };
  const row = await findApiKeyByPublicId(db, parsed.publicId);
  if (!row) {
    // Hash anyway so an unknown id costs the same time as a wrong secret.
    safeEqualHex(hashSecret(parsed.secret), "0".repeat(64));
    return { ok: false, reason: "unknown_key" };
  }
  if (!safeEqualHex(hashSecret(parsed.secret), row.secret_hash)) return { ok: false, reason: "wrong_secret" };
  if (row.revoked_at) return { ok: false, reason: "revoked" };
  if (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) return { ok: false, reason: "expired" };
  // Record use at most once a minute: a write per request would cap throughput for no gain. A database locked
  // by another process (database_busy) must not fail the request for the sake of this note.
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > 60_000) {
    await touchApiKey(db, row.id, now.toISOString()).catch((e: unknown) => {
      if (!isAppError(e) || e.code !== "database_busy") throw e;
    });
  }
  return { ok: true, key: { id: row.id, ...toApiKeyView(row) } };
}

function safeEqualHex(a: string, b: string): boolean {
  const ba = Buffer.from(a, "hex");
  const bb = Buffer.from(b, "hex");
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

export async function listCompanyApiKeys(db: DbOrTx, companyId: number): Promise<ApiKeyView[]> {
  const company = await getCompany(db, companyId);
  if (!company) throw new AppError("not_found", `company ${companyId} not found`);
  return (await listApiKeys(db, companyId)).map(toApiKeyView);
}

export async function revokeApiKeyByPublicId(db: DbOrTx, publicId: string): Promise<ApiKeyView> {
  const row = await revokeApiKey(db, publicId, isoNow());
  if (!row) throw new AppError("not_found", `API key ${publicId} not found`);
  return toApiKeyView(row);
}
