import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { register as callTranscript } from "./call-transcript.js";

/**
 * Every v1 route module, registered once; app.ts mounts the result at /v1 and
 * /api/v1. A route module exports `register(v1)` and declares its own schemas.
 */
const ROUTES: Array<(v1: OpenAPIHono<AppEnv>) => void> = [
  callTranscript,
];

export function registerV1Routes(v1: OpenAPIHono<AppEnv>): void {
  for (const register of ROUTES) register(v1);
}
