import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { register as attachAudio } from "./calls-audio.js";
import { register as createCall } from "./calls-create.js";
import { register as deleteCall } from "./calls-delete.js";
import { register as getCall } from "./calls-get.js";
import { register as listCalls } from "./calls-list.js";
import { register as getReport } from "./calls-report.js";
import { register as reprocess } from "./calls-reprocess.js";
import { register as getTranscript } from "./calls-transcript.js";
import { register as uploads } from "./uploads.js";
import { register as webhookEvents } from "./webhook-events.js";
import { register as importTranscript } from "./calls-transcript-import.js";

/**
 * Every v1 route module, registered once; app.ts mounts the result at /v1 and
 * /api/v1. A route module exports `register(v1)` and declares its own schemas.
 */
const ROUTES: Array<(v1: OpenAPIHono<AppEnv>) => void> = [
  createCall,
  listCalls,
  getCall,
  getReport,
  getTranscript,
  reprocess,
  attachAudio,
  uploads,
  webhookEvents,
  importTranscript,
  deleteCall,
];

export function registerV1Routes(v1: OpenAPIHono<AppEnv>): void {
  for (const register of ROUTES) register(v1);
}
