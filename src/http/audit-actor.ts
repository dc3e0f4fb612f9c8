import type { Context } from "hono";
import type { Actor } from "../lifecycle/audit.js";
import type { AppEnv } from "./env.js";

/** The authenticated key as the audit trail names it: public id (never the secret) and the request id. */
export function actorOf(c: Context<AppEnv>): Actor {
  return { type: "api_key", id: c.get("apiKey").public_id, requestId: c.get("requestId") };
}
