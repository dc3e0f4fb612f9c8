import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { AppError } from "../errors.js";
import type { ConsoleEnv } from "./env.js";
import { SESSION_MS, sessionOf } from "./users.js";

export const SESSION_COOKIE = "callreview_session";
export const LOGIN_CSRF_COOKIE = "callreview_login";

/** Secure when the browser came over https (directly or through a proxy that says so). */
function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto")?.split(",")[0].trim() === "https";
}

export function cookieOptions(c: Context, maxAgeSeconds: number) {
  return { path: "/app", httpOnly: true, sameSite: "Lax" as const, secure: isHttps(c), maxAge: maxAgeSeconds };
}

export function setSessionCookie(c: Context, token: string): void {
  setCookie(c, SESSION_COOKIE, token, cookieOptions(c, Math.floor(SESSION_MS / 1000)));
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/app", secure: isHttps(c) });
}

export function newCsrfToken(): string {
  return randomBytes(24).toString("base64url");
}

export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const SAFE = new Set(["GET", "HEAD"]);

/**
 * Every console route but the login page: a live session, or a redirect to
 * /app/login for pages (401 for scripts). State-changing requests also need
 * the session's CSRF token, as the form field `_csrf` or the X-CSRF-Token
 * header: 403 without it.
 */
export const requireUser: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const token = getCookie(c, SESSION_COOKIE);
  const s = c.get("services");
  const user = token ? await sessionOf(s.store.db, token, s.clock.now()) : undefined;
  if (!user || !token) {
    if (SAFE.has(c.req.method) && c.req.header("accept")?.includes("text/html")) {
      const url = new URL(c.req.url);
      return c.redirect(`/app/login?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
    }
    throw new AppError("unauthorized", "sign in at /app/login");
  }
  if (!SAFE.has(c.req.method)) {
    let sent = c.req.header("x-csrf-token");
    if (!sent && (c.req.header("content-type") ?? "").match(/^(application\/x-www-form-urlencoded|multipart\/form-data)/)) {
      const form = await c.req.parseBody();
      sent = typeof form._csrf === "string" ? form._csrf : undefined;
    }
    if (!sameToken(sent, user.csrf_token)) throw new AppError("forbidden", "missing or wrong CSRF token; reload the page and try again");
  }
  c.set("user", user);
  c.set("sessionToken", token);
  await next();
};
