import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { toCallResource } from "../../calls/resource.js";
import { AppError } from "../../errors.js";
import { formatOfContentType, parseTranscript, TRANSCRIPT_FORMATS } from "../../transcripts/import/index.js";
import { importCallTranscript } from "../../transcripts/import-call-transcript.js";
import { guard } from "../auth.js";
import { parseCallId } from "../call-id.js";
import type { AppEnv } from "../env.js";
import { readBodyText } from "../json-body.js";
import { checkJsonDepth, checkJsonValue } from "../json-limits.js";
import {
  AUTH_ERRORS,
  CallIdParams,
  CallSchema,
  ErrorSchema,
  NOT_FOUND,
  SECURITY,
  ValidationErrorSchema,
  jsonContent,
  withRateHeaders,
} from "../schemas/common.js";
import { fieldErrors } from "../validation.js";
import { TRANSCRIPT_IMPORTED_EXAMPLE, errorExample, validationExample } from "../schemas/examples.js";

const MAX_TEXT_BYTES = 5 * 1024 * 1024;
const MAX_JSON_BYTES = 1024 * 1024;

const SegmentSchema = z.object({ speaker: z.string().nullable().optional(), t_start: z.number(), t_end: z.number(), text: z.string() });
const SegmentsSchema = z.object({ segments: z.array(SegmentSchema) });
const EnvelopeSchema = z
  .strictObject({
    format: z.enum(TRANSCRIPT_FORMATS),
    content: z.union([z.string(), SegmentsSchema]),
    rep_speaker: z.string().min(1).max(100).optional(),
  })
  .openapi("TranscriptImport", { description: "A transcript in any supported format, wrapped with its format name." });

const ImportedSchema = z
  .object({
    call: CallSchema.openapi({ description: "The Call resource after the import (processing_status queued)." }),
    transcript: z.object({ id: z.number().int(), source: z.literal("imported"), segments: z.number().int(), speakers: z.array(z.string()) }),
  })
  .openapi("TranscriptImported");

const VTT_EXAMPLE = "WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n<v Anna>Hi, this call is recorded.\n";
const SRT_EXAMPLE = "1\n00:00:00,000 --> 00:00:04,000\nAnna: Hi, this call is recorded.\n";

/**
 * The body is documented, not validated by the router: plain OpenAPI schemas
 * for the text formats and a JSON body parsed in the handler, so every problem
 * can name its cue and line and the size and depth limits apply before parsing.
 */
const jsonBodySchema = {
  oneOf: [
    { $ref: "#/components/schemas/TranscriptImport" },
    { type: "object" as const, required: ["segments"], properties: { segments: { type: "array" as const } } },
  ],
};

export const importTranscriptRoute = createRoute({
  method: "post",
  path: "/calls/{id}/transcript",
  tags: ["Calls"],
  summary: "Import a transcript for a call and queue its analysis",
  description:
    "Stores the transcript (source `imported`) and queues analysis; a complete or failed call goes back to `queued`. The pipeline skips transcription and analyses the imported text with a real analyzer (rules when no LLM is configured). The body is WebVTT (text/vtt), SubRip (application/x-subrip), JSON `{segments}` or the JSON envelope `{format, content, rep_speaker}`. `rep_speaker` names the speaker who is the rep; other named speakers are customers. Scope: calls:write.",
  security: SECURITY,
  middleware: guard("calls:write"),
  request: {
    params: CallIdParams,
    query: z.object({
      rep_speaker: z
        .string()
        .optional()
        .openapi({ param: { name: "rep_speaker", in: "query" }, description: "For text/vtt, application/x-subrip and bare JSON bodies.", example: "Anna" }),
    }),
    body: {
      required: true,
      content: {
        "text/vtt": { schema: { type: "string" }, example: VTT_EXAMPLE },
        "application/x-subrip": { schema: { type: "string" }, example: SRT_EXAMPLE },
        "application/json": { schema: jsonBodySchema, example: { format: "vtt", content: VTT_EXAMPLE, rep_speaker: "Anna" } },
      },
    },
  },
  responses: {
    202: withRateHeaders(jsonContent(ImportedSchema, "Transcript stored, analysis queued.", TRANSCRIPT_IMPORTED_EXAMPLE)),
    400: jsonContent(
      ErrorSchema,
      "`invalid_json`: invalid UTF-8 in any format, or unparseable JSON; `bad_request`: the body was cut off.",
      errorExample("invalid_json", "the transcript body is not valid UTF-8"),
    ),
    409: jsonContent(
      ErrorSchema,
      "`conflict`: the call is being transcribed or analysed right now.",
      errorExample("conflict", "call 42 is being processed (analyzing); import the transcript once it is complete or failed"),
    ),
    413: jsonContent(
      ErrorSchema,
      "Body too large (`payload_too_large`; JSON 1 MiB, VTT/SRT 5 MiB).",
      errorExample("payload_too_large", "JSON bodies are limited to 1 MiB"),
    ),
    422: jsonContent(
      ValidationErrorSchema.or(ErrorSchema),
      "`validation_failed` (JSON nested deeper than 32 levels or with over 10,000 keys, bad timestamps, end before start, cues out of order, empty text, unknown format; `errors.transcript` names each cue and line) or `empty_payload`.",
      validationExample({ transcript: ["cue 2 (line 5): ends (4.4s) before it starts (7.25s)"] }),
    ),
    ...NOT_FOUND,
    ...AUTH_ERRORS,
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  // Keeps the document's reference to the envelope schema resolvable: the body schema above is plain JSON.
  v1.openAPIRegistry.register("TranscriptImport", EnvelopeSchema);
  v1.openapi(importTranscriptRoute, async (c) => {
    const services = c.get("services");
    const callId = parseCallId(c.req.param("id"));
    // Strict UTF-8 like the JSON routes: a lenient decode would put U+FFFD into the stored transcript.
    const body = await readBodyText(c, MAX_TEXT_BYTES, "transcript body");
    if (!body.trim()) throw new AppError("empty_payload", "the request body is empty: send a WebVTT, SRT or JSON transcript");
    const contentType = c.req.header("content-type");
    const format = formatOfContentType(contentType);
    const repSpeaker = c.req.query("rep_speaker");
    let transcript;
    if (format === "json") transcript = parseJsonTranscript(body, repSpeaker);
    else if (format) transcript = parseTranscript(format, body, repSpeaker);
    else {
      throw new AppError("validation_failed", `unknown transcript format: content type "${contentType ?? "(none)"}"`, {
        errors: { "content-type": ["must be text/vtt, application/x-subrip or application/json"] },
      });
    }

    const result = await importCallTranscript(services.store.db, { companyId: c.get("apiKey").company_id, callId, transcript }, services.clock.now());
    services.logger.info("transcript imported", { call_id: callId, segments: transcript.segments.length, requeued: result.requeued });
    return c.json(
      {
        call: toCallResource(result.call),
        transcript: {
          id: result.transcript.id,
          source: "imported" as const,
          segments: transcript.segments.length,
          speakers: [...new Set(transcript.segments.map((s) => String(s.speaker)))].sort(),
        },
      },
      202,
    );
  });
}

/** A JSON body: the envelope {format, content, rep_speaker} or a bare {segments}; limits checked before and after parsing. */
function parseJsonTranscript(body: string, repSpeaker: string | undefined) {
  if (Buffer.byteLength(body) > MAX_JSON_BYTES) throw new AppError("payload_too_large", "JSON bodies are limited to 1 MiB");
  checkJsonDepth(body);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    throw new AppError("invalid_json", `the body is not valid JSON: ${(e as Error).message}`);
  }
  checkJsonValue(value);
  if (value && typeof value === "object" && "format" in value) {
    const env = EnvelopeSchema.safeParse(value);
    if (!env.success) throw new AppError("validation_failed", "request validation failed", { errors: fieldErrors(env.error) });
    return parseTranscript(env.data.format, env.data.content, env.data.rep_speaker);
  }
  return parseTranscript("json", value, repSpeaker);
}
