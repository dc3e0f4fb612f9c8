import { AppError } from "../../errors.js";
import type { Transcript } from "../../pipeline/ports.js";
import { Problems, toTranscript } from "./common.js";
import { parseJsonTranscript } from "./json.js";
import { parseSrt } from "./srt.js";
import { parseVtt } from "./vtt.js";

export const TRANSCRIPT_FORMATS = ["vtt", "srt", "json"] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** Content types that name a format; anything else must say its format in the JSON envelope. */
export function formatOfContentType(contentType: string | undefined): TranscriptFormat | undefined {
  const t = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (t === "text/vtt") return "vtt";
  if (t === "application/x-subrip" || t === "text/srt" || t === "application/srt") return "srt";
  if (t === "application/json") return "json";
  return undefined;
}

/** A format name from a file name, for the CLI. */
export function formatOfFileName(name: string): TranscriptFormat | undefined {
  const ext = name.toLowerCase().split(".").pop();
  return ext === "vtt" ? "vtt" : ext === "srt" ? "srt" : ext === "json" ? "json" : undefined;
}

/**
 * Parses an imported transcript and validates it; throws 422 validation_failed
 * with every problem (line or segment named) in `errors.transcript`.
 */
export function parseTranscript(format: string, content: unknown, repSpeaker?: string): Transcript {
  const problems = new Problems();
  if (!(TRANSCRIPT_FORMATS as readonly string[]).includes(format)) {
    throw new AppError("validation_failed", `unknown transcript format "${format}"`, {
      errors: { format: [`must be one of ${TRANSCRIPT_FORMATS.join(", ")}`] },
    });
  }
  let cues;
  if (format === "json") {
    let value = content;
    if (typeof content === "string") {
      try {
        value = JSON.parse(content);
      } catch (e) {
        throw new AppError("validation_failed", "the transcript is not valid JSON", { errors: { transcript: [(e as Error).message] } });
      }
    }
    cues = parseJsonTranscript(value, problems);
  } else {
    if (typeof content !== "string")
      throw new AppError("validation_failed", `a ${format} transcript must be text`, { errors: { content: ["expected a string"] } });
    cues = format === "vtt" ? parseVtt(content, problems) : parseSrt(content, problems);
  }
  return toTranscript(cues, repSpeaker, problems);
}
