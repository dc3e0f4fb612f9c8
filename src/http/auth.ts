import type { MiddlewareHandler } from "hono";
import { authenticateApiKey } from "../auth/api-keys.js";
import type { Scope } from "../auth/scopes.js";
import { AppError } from "../errors.js";
import type { AppEnv } from "./env.js";

/** The key from `Authorization: Bearer <key>` or `X-Api-Key: <key>` (spec 5). */
export function presentedKey(headers: { header(name: string): string | undefined }): string | undefined {
  const auth = headers.header("authorization");
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1] : "";
  }
  return headers.header("x-api-key")?.trim() || undefined;
}

/** 401 for every kind of bad key, with one message: the caller learns nothing about which check failed. */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const services = c.get("services");
  const outcome = await authenticateApiKey(services.store.db, presentedKey(c.req), services.clock.now());
  if (!outcome.ok) {
    services.logger.debug("authentication failed", { request_id: c.get("requestId"), reason: outcome.reason });
    throw new AppError("unauthorized", "missing or invalid API key");
  }
  c.set("apiKey", outcome.key);
  await next();
};

export function requireScope(scope: Scope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get("apiKey").scopes.includes(scope)) {
      throw new AppError("forbidden", `this API key lacks the ${scope} scope`);
    }
    await next();
  };
}

/** The middleware chain of every authenticated route: who you are, then what you may do. */
export function guard(scope: Scope): MiddlewareHandler<AppEnv>[] {
  return [authenticate, requireScope(scope)];
}
