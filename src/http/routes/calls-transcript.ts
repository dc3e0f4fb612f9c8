import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { AppError } from "../../errors.js";
import { audit } from "../../lifecycle/audit.js";
import { actorOf } from "../audit-actor.js";
import { getCompanyCall } from "../../store/calls.js";
import { latestTranscriptRow, toTranscript } from "../../store/transcripts.js";
import { guard } from "../auth.js";
import { parseCallId } from "../call-id.js";
import type { AppEnv } from "../env.js";
import { AUTH_ERRORS, CallIdParams, NOT_FOUND, ReportNotReadySchema, SECURITY, jsonContent, withRateHeaders } from "../schemas/common.js";
import { CALL_TRANSCRIPT_EXAMPLE, errorExample } from "../schemas/examples.js";

const SegmentSchema = z
  .object({
    t_start: z.number().openapi({ description: "Seconds from the start of the call." }),
    t_end: z.number(),
    speaker: z.string().openapi({ description: "`rep` / `customer` on stereo calls (by channel), `unknown` on mono." }),
    text: z.string(),
  })
  .openapi("TranscriptSegment");

const MetricsSchema = z
  .object({
    duration_seconds: z.number(),
    speech_seconds: z.number(),
    silence_share: z.number().openapi({ description: "Share of the call in which nobody speaks, 0..1." }),
    rep_talk_seconds: z.number().nullable(),
    customer_talk_seconds: z.number().nullable(),
    talk_ratio: z.number().nullable().openapi({ description: "rep / (rep + customer) talk time, 0..1; null on mono audio." }),
    longest_monologue_rep_seconds: z.number().nullable(),
    longest_monologue_customer_seconds: z.number().nullable(),
    turns: z.number().int().nullable(),
    overlap_seconds: z.number().nullable(),
  })
  .openapi("TalkMetrics");

const CallTranscriptSchema = z
  .object({
    call_id: z.number().int(),
    segments: z.array(SegmentSchema),
    metrics: MetricsSchema.nullable().openapi({ description: "From voice activity; null when no VAD model was installed or the transcript was imported." }),
    language: z.string().nullable(),
    model: z.string().nullable().openapi({ description: "Model file that produced the text, or null." }),
  })
  .openapi("CallTranscript");

export const getTranscriptRoute = createRoute({
  method: "get",
  path: "/calls/{id}/transcript",
  tags: ["Reports"],
  summary: "Get the transcript",
  description:
    "The latest transcript of the call with talk metrics. Until a transcript exists the answer is 409 `report_not_ready` with the current processing status. Scope: reports:read.",
  security: SECURITY,
  middleware: guard("reports:read"),
  request: { params: CallIdParams },
  responses: {
    200: withRateHeaders(jsonContent(CallTranscriptSchema, "The transcript.", CALL_TRANSCRIPT_EXAMPLE)),
    409: jsonContent(ReportNotReadySchema, "No transcript yet (`report_not_ready`, with `status`).", {
      ...errorExample("report_not_ready", "call 42 has no transcript yet (transcribing)"),
      status: "transcribing",
    }),
    ...NOT_FOUND,
    ...AUTH_ERRORS,
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(getTranscriptRoute, async (c) => {
    const id = parseCallId(c.req.param("id"));
    const db = c.get("services").store.db;
    const call = await getCompanyCall(db, c.get("apiKey").company_id, id);
    if (!call) throw new AppError("not_found", `call ${id} not found`);
    const row = await latestTranscriptRow(db, id);
    if (!row) {
      throw new AppError("report_not_ready", `call ${id} has no transcript yet (${call.processing_status})`, { extra: { status: call.processing_status } });
    }
    const t = toTranscript(row);
    await audit(db, actorOf(c), "transcript.read", { companyId: call.company_id, callId: id }, c.get("services").clock.now());
    return c.json({ call_id: id, segments: t.segments, metrics: t.metrics, language: t.language, model: t.model }, 200);
  });
}
