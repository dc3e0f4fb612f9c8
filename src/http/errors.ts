import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { AppError } from "../errors.js";
import type { AppEnv } from "./env.js";

/** Seconds a client should wait before retrying a write refused with database_busy. */
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 2;

export function errorResponse(c: Context, err: AppError): Response {
  if (err.code === "database_busy") c.header("Retry-After", String(DATABASE_BUSY_RETRY_AFTER_SECONDS));
  return c.json(err.toBody(), err.status as 400);
}

export const notFoundHandler: NotFoundHandler<AppEnv> = (c) =>
  errorResponse(c, new AppError("not_found", `no route for ${c.req.method} ${new URL(c.req.url).pathname}`));

/** Every failure leaves as {error, message}; unexpected ones are logged with the request id and never show internals. */
export const onErrorHandler: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof AppError) return errorResponse(c, err);
  if (err instanceof HTTPException && err.status < 500) {
    const code = err.status === 413 ? "payload_too_large" : err.status === 401 ? "unauthorized" : err.status === 404 ? "not_found" : "invalid_json";
    return errorResponse(c, new AppError(code, err.message || "bad request"));
  }
  const services = c.get("services");
  services?.logger.error("unhandled error", {
    request_id: c.get("requestId"),
    method: c.req.method,
    path: new URL(c.req.url).pathname,
    error: err instanceof Error ? err.message : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return errorResponse(c, new AppError("internal_error", `unexpected server error (request ${c.get("requestId") ?? "unknown"}); safe to retry with backoff`));
};
