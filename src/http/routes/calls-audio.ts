import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { toCallResource } from "../../calls/resource.js";
import { AppError } from "../../errors.js";
import { attachAudio } from "../../intake/attach-audio.js";
import { getCompanyCall } from "../../store/calls.js";
import { guard } from "../auth.js";
import { parseCallId } from "../call-id.js";
import type { AppEnv } from "../env.js";
import { withAudioUpload } from "../multipart.js";
import {
  AUTH_ERRORS,
  MULTIPART_400,
  MULTIPART_415,
  CallIdParams,
  CallSchema,
  ErrorSchema,
  NOT_FOUND,
  SECURITY,
  jsonContent,
  withRateHeaders,
} from "../schemas/common.js";
import { AUDIO_FORM_SCHEMA } from "../schemas/upload.js";
import { AUDIO_FORM_EXAMPLE, QUEUED_CALL_EXAMPLE, errorExample } from "../schemas/examples.js";

export const attachAudioRoute = createRoute({
  method: "post",
  path: "/calls/{id}/audio",
  tags: ["Calls"],
  summary: "Attach audio to a call",
  description:
    "Gives an existing call its audio (e.g. one submitted without recording_url), as multipart/form-data with a `file` part, streamed and checked like /uploads. A queued call keeps its place in the queue; a complete or failed call is queued again (report_status pending). A call being transcribed or analysed answers 409 `conflict`: retry once it is complete or failed. Scope: calls:write.",
  security: SECURITY,
  middleware: guard("calls:write"),
  request: { params: CallIdParams, body: { required: true, content: { "multipart/form-data": { schema: AUDIO_FORM_SCHEMA, example: AUDIO_FORM_EXAMPLE } } } },
  responses: {
    200: withRateHeaders(jsonContent(CallSchema, "The call, now with audio and queued.", QUEUED_CALL_EXAMPLE)),
    409: jsonContent(ErrorSchema, "The call is being processed (`conflict`, with `status`).", {
      ...errorExample("conflict", "call 42 is being processed (transcribing); attach audio once it is complete or failed"),
      status: "transcribing",
    }),
    ...MULTIPART_400,
    ...MULTIPART_415,
    422: jsonContent(
      ErrorSchema,
      "`no_file` or `invalid_file` (the message says why).",
      errorExample("invalid_file", "file is not a supported audio type (accepted: WAV, MP3, FLAC, OGG/Opus, M4A/MP4, WebM)"),
    ),
    ...NOT_FOUND,
    ...AUTH_ERRORS,
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(attachAudioRoute, async (c) => {
    const id = parseCallId(c.req.param("id"));
    const s = c.get("services");
    const companyId = c.get("apiKey").company_id;
    // Refuse an unknown call before streaming a possibly large file to disk.
    if (!(await getCompanyCall(s.store.db, companyId, id))) throw new AppError("not_found", `call ${id} not found`);
    return withAudioUpload(c, s, async (upload) => {
      const unknown = Object.keys(upload.fields);
      if (unknown.length > 0) {
        throw new AppError("validation_failed", "request validation failed", { errors: Object.fromEntries(unknown.map((n) => [n, ["unknown field"]])) });
      }
      const { call } = await attachAudio(s.store.db, { companyId, callId: id, audio: upload.audio }, s.clock.now());
      return c.json(toCallResource(call), 200);
    });
  });
}
