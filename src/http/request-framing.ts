import type { MiddlewareHandler } from "hono";
import { AppError } from "../errors.js";
import type { AppEnv } from "./env.js";

/** Methods a route may use; anything else is 405, whatever the path. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Checks on the request line and framing that the listener leaves to us, ahead
 * of every route. Node refuses duplicate Content-Length itself; Bun keeps the
 * first value for framing and shows us all of them joined by ", ". A proxy in
 * front may have framed the body by another one, so any list, or anything but
 * digits, is refused (request smuggling).
 */
export const requestFraming: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!KNOWN_METHODS.has(c.req.method)) {
    c.header("Allow", "GET, HEAD, POST");
    throw new AppError("method_not_allowed", `method ${c.req.method} is not supported`);
  }
  const length = c.req.header("content-length");
  if (length !== undefined && !/^\d+$/.test(length.trim())) {
    throw new AppError("bad_request", "the request has conflicting or malformed Content-Length headers");
  }
  await next();
};
