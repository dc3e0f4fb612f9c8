import type { DbOrTx } from "./db.js";
import type { UsersTable } from "./schema.js";
import type { Selectable } from "kysely";

export const USER_ROLES = ["reviewer", "manager", "admin"] as const;
export type UserRole = (typeof USER_ROLES)[number];
export type UserRow = Selectable<UsersTable>;

/** A user as listed: never the password hash. */
export interface UserView {
  id: number;
  company_id: number;
  email: string;
  role: string;
  disabled: boolean;
  locked_until: string | null;
  last_login_at: string | null;
  created_at: string;
}

export function toUserView(u: UserRow): UserView {
  return {
    id: u.id,
    company_id: u.company_id,
    email: u.email,
    role: u.role,
    disabled: u.disabled_at !== null,
    locked_until: u.locked_until,
    last_login_at: u.last_login_at,
    created_at: u.created_at,
  };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function insertUser(db: DbOrTx, input: { companyId: number; email: string; role: UserRole; passwordHash: string; now: string }): Promise<UserRow> {
  return db
    .insertInto("users")
    .values({
      company_id: input.companyId,
      email: input.email,
      role: input.role,
      password_hash: input.passwordHash,
      created_at: input.now,
      updated_at: input.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

export async function getUser(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listUsers(db: DbOrTx, companyId?: number): Promise<UserRow[]> {
  let q = db.selectFrom("users").selectAll().orderBy("id");
  if (companyId !== undefined) q = q.where("company_id", "=", companyId);
  return q.execute();
}

export async function setUserDisabled(db: DbOrTx, id: number, now: string): Promise<void> {
  await db.updateTable("users").set({ disabled_at: now, updated_at: now }).where("id", "=", id).execute();
  await db.deleteFrom("sessions").where("user_id", "=", id).execute();
}

/** A new password also clears the lockout and ends every session of the user. */
export async function setUserPassword(db: DbOrTx, id: number, passwordHash: string, now: string): Promise<void> {
  await db.updateTable("users").set({ password_hash: passwordHash, failed_logins: 0, locked_until: null, updated_at: now }).where("id", "=", id).execute();
  await db.deleteFrom("sessions").where("user_id", "=", id).execute();
}

export async function recordFailedLogin(db: DbOrTx, id: number, failures: number, lockedUntil: string | null, now: string): Promise<void> {
  await db.updateTable("users").set({ failed_logins: failures, locked_until: lockedUntil, updated_at: now }).where("id", "=", id).execute();
}

export async function recordLogin(db: DbOrTx, id: number, now: string): Promise<void> {
  await db.updateTable("users").set({ failed_logins: 0, locked_until: null, last_login_at: now, updated_at: now }).where("id", "=", id).execute();
}
