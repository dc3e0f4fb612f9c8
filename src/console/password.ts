import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Password hashing with scrypt (node:crypto, present in Node and Bun).
 * Stored as scrypt$N$r$p$salt$hash so the cost can be raised later and old
 * hashes still verify.
 */
const N = 16384;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, { N: n, r, p, maxmem: 256 * n * r }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const expected = Buffer.from(parts[5], "base64url");
  const key = await derive(password, Buffer.from(parts[4], "base64url"), n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** What a password must be: long enough to resist guessing at the throttled login rate. */
export function passwordProblem(password: string): string | null {
  if (password.length < 10) return "password must be at least 10 characters";
  if (password.length > 1024) return "password must be at most 1024 characters";
  return null;
}
