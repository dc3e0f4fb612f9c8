import type { DbOrTx } from "./db.js";

export interface SessionUser {
  session_id: number;
  csrf_token: string;
  expires_at: string;
  user_id: number;
  company_id: number;
  email: string;
  role: string;
}

export async function insertSession(
  db: DbOrTx,
  input: { tokenHash: string; userId: number; csrfToken: string; now: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto("sessions")
    .values({ token_hash: input.tokenHash, user_id: input.userId, csrf_token: input.csrfToken, created_at: input.now, expires_at: input.expiresAt })
    .execute();
}

/** The live session of a cookie with its (enabled) user, or undefined. */
export async function findSession(db: DbOrTx, tokenHash: string, now: string): Promise<SessionUser | undefined> {
  return db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select(["s.id as session_id", "s.csrf_token", "s.expires_at", "u.id as user_id", "u.company_id", "u.email", "u.role"])
    .where("s.token_hash", "=", tokenHash)
    .where("s.expires_at", ">", now)
    .where("u.disabled_at", "is", null)
    .executeTakeFirst();
}

export async function deleteSession(db: DbOrTx, tokenHash: string): Promise<void> {
  await db.deleteFrom("sessions").where("token_hash", "=", tokenHash).execute();
}

export async function deleteExpiredSessions(db: DbOrTx, now: string): Promise<void> {
  await db.deleteFrom("sessions").where("expires_at", "<=", now).execute();
}
