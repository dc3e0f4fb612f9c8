import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { every } from "hono/combine";
import { toCallResource } from "../../calls/resource.js";
import { AppError } from "../../errors.js";
import { formatOfContentType, parseTranscript, TRANSCRIPT_FORMATS } from "../../transcripts/import/index.js";
import { importCallTranscript } from "../../transcripts/import-call-transcript.js";
import { guard } from "../auth.js";
import type { AppEnv } from "../env.js";
import { readBodyText } from "../json-body.js";
import { checkJsonDepth, checkJsonValue } from "../json-limits.js";
import { fieldErrors } from "../validation.js";

const MAX_TEXT_BYTES = 5 * 1024 * 1024;
const MAX_JSON_BYTES = 1024 * 1024;

const SegmentSchema = z.object({ speaker: z.string().nullable().optional(), t_start: z.number(), t_end: z.number(), text: z.string() });
const EnvelopeSchema = z
  .strictObject({
    format: z.enum(TRANSCRIPT_FORMATS),
    content: z.union([z.string(), z.object({ segments: z.array(SegmentSchema) })]),
    rep_speaker: z.string().min(1).max(100).optional(),
  })
  .openapi("TranscriptImport", { description: "A transcript in any supported format, wrapped with its format name." });

const ImportedSchema = z
  .object({
    call: z.object({}).passthrough().openapi({ description: "The Call resource after the import (processing_status queued)." }),
    transcript: z.object({ id: z.number().int(), source: z.literal("imported"), segments: z.number().int(), speakers: z.array(z.string()) }),
  })
  .openapi("TranscriptImported");

const ErrorSchema = z.object({ error: z.string(), message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() });

/**
 * POST /calls/{id}/transcript: bring your own transcript. The body is a WebVTT
 * (text/vtt), SubRip (application/x-subrip) or JSON ({segments: [...]})
 * document, with `?rep_speaker=Name`; or the JSON envelope {format, content, rep_speaker}.
 * Declared in the OpenAPI registry by hand: the body is parsed here, not by the
 * generic JSON validator, so every problem can name its cue and line.
 */
export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openAPIRegistry.registerPath({
    method: "post",
    path: "/calls/{id}/transcript",
    tags: ["calls"],
    summary: "Import a transcript for a call and queue its analysis",
    description:
      "Stores the transcript (source `imported`) and queues analysis; a complete or failed call goes back to `queued`. The pipeline skips transcription and analyses the imported text with a real analyzer (rules when no LLM is configured). `rep_speaker` names the speaker who is the rep; other named speakers are customers.",
    security: [{ bearerAuth: [] }],
    request: {
      params: z.object({ id: z.string().openapi({ example: "42" }) }),
      query: z.object({ rep_speaker: z.string().optional().openapi({ description: "For text/vtt, application/x-subrip and bare JSON bodies." }) }),
      body: {
        required: true,
        content: {
          "text/vtt": { schema: z.string().openapi({ example: "WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n<v Anna>Hi, this call is recorded.\n" }) },
          "application/x-subrip": { schema: z.string().openapi({ example: "1\n00:00:00,000 --> 00:00:04,000\nAnna: Hi, this call is recorded.\n" }) },
          "application/json": { schema: z.union([EnvelopeSchema, z.object({ segments: z.array(SegmentSchema) })]) },
        },
      },
    },
    responses: {
      202: { description: "Transcript stored, analysis queued", content: { "application/json": { schema: ImportedSchema } } },
      400: { description: "`invalid_json`: invalid UTF-8 in any format, or unparseable JSON; `bad_request`: the body was cut off", content: { "application/json": { schema: ErrorSchema } } },
      401: { description: "Missing or invalid API key", content: { "application/json": { schema: ErrorSchema } } },
      403: { description: "Key lacks calls:write", content: { "application/json": { schema: ErrorSchema } } },
      404: { description: "No such call for this company", content: { "application/json": { schema: ErrorSchema } } },
      409: { description: "`conflict`: the call is being transcribed or analysed right now", content: { "application/json": { schema: ErrorSchema } } },
      413: { description: "Body too large (JSON 1 MiB, VTT/SRT 5 MiB)", content: { "application/json": { schema: ErrorSchema } } },
      422: { description: "`validation_failed` (JSON nested deeper than 32 levels or with over 10,000 keys, bad timestamps, end before start, cues out of order, empty text, unknown format; `errors.transcript` names each cue and line) or `empty_payload`", content: { "application/json": { schema: ErrorSchema } } },
    },
  });

  v1.post(
    "/calls/:id/transcript",
    // The whole guard chain as one middleware, whatever it grows to hold.
    every(...guard("calls:write")),
    async (c) => {
      const services = c.get("services");
      const idText = c.req.param("id");
      const callId = /^\d{1,15}$/.test(idText) ? Number(idText) : NaN;
      if (!Number.isSafeInteger(callId) || callId < 1) throw new AppError("not_found", `call ${idText} not found`);

      // Strict UTF-8 like the JSON routes: a lenient decode would put U+FFFD into the stored transcript.
      const body = await readBodyText(c, MAX_TEXT_BYTES, "transcript body");
      if (!body.trim()) throw new AppError("empty_payload", "the request body is empty: send a WebVTT, SRT or JSON transcript");
      const contentType = c.req.header("content-type");
      const format = formatOfContentType(contentType);
      let transcript;
      if (format === "json") {
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
          transcript = parseTranscript(env.data.format, env.data.content, env.data.rep_speaker);
        } else {
          transcript = parseTranscript("json", value, c.req.query("rep_speaker"));
        }
      } else if (format) {
        transcript = parseTranscript(format, body, c.req.query("rep_speaker"));
      } else {
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
    },
  );
}
