import { createHash, randomBytes } from "node:crypto";
import { randomBase62 } from "../auth/random.js";
import { AppError } from "../errors.js";
import { audit, type Actor } from "../lifecycle/audit.js";
import type { Db } from "../store/db.js";
import { getCompany } from "../store/companies.js";
import { deleteExpiredSessions, deleteSession, findSession, insertSession, type SessionUser } from "../store/sessions.js";
import {
  findUserByEmail,
  getUser,
  insertUser,
  normalizeEmail,
  recordFailedLogin,
  recordLogin,
  setUserDisabled,
  setUserPassword,
  USER_ROLES,
  type UserRole,
  type UserRow,
} from "../store/users.js";
import { addMs, isoNow } from "../time.js";
import { hashPassword, passwordProblem, verifyPassword } from "./password.js";

/** Consecutive wrong passwords that lock an account, and for how long. */
export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60_000;
export const SESSION_MS = 12 * 60 * 60_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function parseRole(role: string): UserRole {
  if (!(USER_ROLES as readonly string[]).includes(role)) throw new AppError("validation_failed", `invalid role "${role}" (expected ${USER_ROLES.join(", ")})`);
  return role as UserRole;
}

/** A one-time password for `user create` / `reset-password` without --password-stdin: 20 base62 characters. */
export function generatePassword(): string {
  return randomBase62(20);
}

export async function createUser(
  db: Db,
  actor: Actor,
  input: { companyId: number; email: string; role: string; password: string },
  now: Date,
): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254) throw new AppError("validation_failed", `invalid email "${input.email}"`);
  const role = parseRole(input.role);
  const problem = passwordProblem(input.password);
  if (problem) throw new AppError("validation_failed", problem);
  if (!(await getCompany(db, input.companyId))) throw new AppError("not_found", `company ${input.companyId} not found`);
  if (await findUserByEmail(db, email)) throw new AppError("conflict", `a user with email ${email} already exists`);
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const user = await insertUser(trx, { companyId: input.companyId, email, role, passwordHash, now: isoNow(now) });
    await audit(trx, actor, "user.create", { companyId: user.company_id, detail: { user_id: user.id, role } }, now);
    return user;
  });
}

async function requireUser(db: Db, id: number): Promise<UserRow> {
  const user = await getUser(db, id);
  if (!user) throw new AppError("not_found", `user ${id} not found`);
  return user;
}

export async function disableUser(db: Db, actor: Actor, id: number, now: Date): Promise<UserRow> {
  const user = await requireUser(db, id);
  await db.transaction().execute(async (trx) => {
    await setUserDisabled(trx, id, isoNow(now));
    await audit(trx, actor, "user.disable", { companyId: user.company_id, detail: { user_id: id } }, now);
  });
  return (await getUser(db, id))!;
}

export async function resetPassword(db: Db, actor: Actor, id: number, password: string, now: Date): Promise<UserRow> {
  const user = await requireUser(db, id);
  const problem = passwordProblem(password);
  if (problem) throw new AppError("validation_failed", problem);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await setUserPassword(trx, id, passwordHash, isoNow(now));
    await audit(trx, actor, "user.reset_password", { companyId: user.company_id, detail: { user_id: id } }, now);
  });
  return (await getUser(db, id))!;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A dummy hash checked for unknown emails, so a wrong email costs as long as a wrong password. */
let dummyHash: Promise<string> | undefined;

/**
 * Checks email and password. Every failure answers the same `unauthorized`
 * (no telling which part was wrong); LOCKOUT_FAILURES wrong passwords in a row
 * lock the account for LOCKOUT_MS, even for the right password.
 */
export async function signIn(
  db: Db,
  input: { email: string; password: string; requestId?: string | null },
  now: Date,
): Promise<{ token: string; session: SessionUser }> {
  const user = await findUserByEmail(db, input.email);
  if (!user || user.disabled_at !== null) {
    await verifyPassword(input.password, await (dummyHash ??= hashPassword(randomBytes(16).toString("hex"))));
    throw new AppError("unauthorized", "wrong email or password");
  }
  const actor: Actor = { type: "user", id: user.email, requestId: input.requestId };
  if (user.locked_until !== null && user.locked_until > isoNow(now)) {
    throw new AppError("unauthorized", "this account is locked after repeated wrong passwords; try again later or ask an admin to reset the password");
  }
  if (!(await verifyPassword(input.password, user.password_hash))) {
    const failures = user.failed_logins + 1;
    const locked = failures >= LOCKOUT_FAILURES ? addMs(isoNow(now), LOCKOUT_MS) : null;
    await recordFailedLogin(db, user.id, locked ? 0 : failures, locked, isoNow(now));
    await audit(db, actor, "user.login_failed", { companyId: user.company_id, detail: { user_id: user.id, locked: locked !== null } }, now);
    throw new AppError(
      "unauthorized",
      locked ? "this account is locked after repeated wrong passwords; try again later or ask an admin to reset the password" : "wrong email or password",
    );
  }
  const token = randomBase62(43);
  const csrf = randomBase62(32);
  await db.transaction().execute(async (trx) => {
    await deleteExpiredSessions(trx, isoNow(now));
    await insertSession(trx, { tokenHash: hashToken(token), userId: user.id, csrfToken: csrf, now: isoNow(now), expiresAt: addMs(isoNow(now), SESSION_MS) });
    await recordLogin(trx, user.id, isoNow(now));
    await audit(trx, actor, "user.login", { companyId: user.company_id, detail: { user_id: user.id } }, now);
  });
  const session = (await findSession(db, hashToken(token), isoNow(now)))!;
  return { token, session };
}

export async function sessionOf(db: Db, token: string, now: Date): Promise<SessionUser | undefined> {
  return findSession(db, hashToken(token), isoNow(now));
}

export async function signOut(db: Db, token: string): Promise<void> {
  await deleteSession(db, hashToken(token));
}
