import type { DbOrTx } from "./db.js";
import type { ApiKeyRow } from "./schema.js";

export async function insertApiKey(
  db: DbOrTx,
  row: { public_id: string; company_id: number; name: string | null; secret_hash: string; scopes: string; expires_at: string | null; created_at: string },
): Promise<ApiKeyRow> {
  return db.insertInto("api_keys").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findApiKeyByPublicId(db: DbOrTx, publicId: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom("api_keys").selectAll().where("public_id", "=", publicId).executeTakeFirst();
}

export async function listApiKeys(db: DbOrTx, companyId: number): Promise<ApiKeyRow[]> {
  return db.selectFrom("api_keys").selectAll().where("company_id", "=", companyId).orderBy("id").execute();
}

export async function revokeApiKey(db: DbOrTx, publicId: string, at: string): Promise<ApiKeyRow | undefined> {
  // Revoking twice keeps the first revocation time.
  await db.updateTable("api_keys").set({ revoked_at: at }).where("public_id", "=", publicId).where("revoked_at", "is", null).execute();
  return findApiKeyByPublicId(db, publicId);
}

export async function touchApiKey(db: DbOrTx, id: number, at: string): Promise<void> {
  await db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", id).execute();
}
