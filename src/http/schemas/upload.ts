import { z } from "@hono/zod-openapi";

/** Text parts of POST /uploads (spec 4.6). Multipart values arrive as strings. */
export const UploadFieldsSchema = z.strictObject({
  rep_name: z.string().max(255, "must be at most 255 characters").optional(),
  customer_name: z.string().max(255, "must be at most 255 characters").optional(),
  duration_seconds: z
    .string()
    .regex(/^\s*\d{1,6}\s*$/, "must be a whole number of seconds >= 0")
    .transform((v) => Number(v))
    .pipe(z.number().max(7 * 24 * 3600, "must be at most 604800 (7 days)"))
    .optional(),
});

/**
 * Documentation-only schemas (plain OpenAPI objects, not zod): a zod schema
 * here would make the router buffer and parse the whole form itself, and the
 * upload must stream.
 */
export const UPLOAD_FORM_SCHEMA = {
  type: "object" as const,
  required: ["file"],
  properties: {
    file: { type: "string" as const, format: "binary", description: "The audio. Type recognised from its content: WAV, MP3, FLAC, OGG/Opus, M4A/MP4, WebM." },
    rep_name: { type: "string" as const, maxLength: 255 },
    customer_name: { type: "string" as const, maxLength: 255 },
    duration_seconds: { type: "integer" as const, minimum: 0, maximum: 604800 },
  },
};

export const AUDIO_FORM_SCHEMA = {
  type: "object" as const,
  required: ["file"],
  properties: { file: UPLOAD_FORM_SCHEMA.properties.file },
};
