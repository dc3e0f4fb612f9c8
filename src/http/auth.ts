import type { MiddlewareHandler } from "hono";
import { authenticateApiKey } from "../auth/api-keys.js";
import type { Scope } from "../auth/scopes.js";
import { AppError } from "../errors.js";
import type { Services } from "../services.js";
import type { AppEnv } from "./env.js";
import { FixedWindowLimiter } from "./rate-limit.js";

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

const limiters = new WeakMap<Services, FixedWindowLimiter>();

function limiterFor(services: Services): FixedWindowLimiter {
  let l = limiters.get(services);
  if (!l) {
    l = new FixedWindowLimiter(services.config.rateLimit, services.config.rateLimitWindowSeconds, services.clock);
    limiters.set(services, l);
  }
  return l;
}

/**
 * Counts the request against its key's window. Headers are set on the context
 * before the handler runs, so error answers (403, 404, 422 ...) carry them too.
 */
export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const limiter = limiterFor(c.get("services"));
  if (!limiter.enabled) return next();
  const d = limiter.hit(c.get("apiKey").id);
  c.header("X-RateLimit-Limit", String(d.limit));
  c.header("X-RateLimit-Remaining", String(d.remaining));
  c.header("X-RateLimit-Reset", String(d.resetAt));
  if (!d.allowed) {
    c.header("Retry-After", String(d.retryAfter));
    throw new AppError("rate_limited", `rate limit of ${d.limit} requests per window exceeded; retry after ${d.retryAfter} s`);
  }
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

/** The middleware chain of every authenticated route: who you are, how often, then what you may do. */
export function guard(scope: Scope): MiddlewareHandler<AppEnv>[] {
  return [authenticate, rateLimit, requireScope(scope)];
}
