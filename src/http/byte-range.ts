import fs from "node:fs";
import { Readable } from "node:stream";

/**
 * HTTP Range (RFC 9110 14) for one stored file: a single byte range, which is
 * what audio elements ask for. Multiple ranges are answered with the whole
 * file (allowed: a server may ignore Range).
 */
export type RangeResult = { kind: "all" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: "all" };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return { kind: "all" };
  if (m[1] === "") {
    // Suffix: the last n bytes.
    const n = Number(m[2]);
    if (n === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end };
}

/** A 200, 206 or 416 answer streaming `file` (never read whole into memory). */
export function fileResponse(file: string, size: number, contentType: string, rangeHeader: string | undefined, head = false): Response {
  const range = parseRange(rangeHeader, size);
  const base = { "Content-Type": contentType, "Accept-Ranges": "bytes", "Cache-Control": "private, no-store" };
  if (range.kind === "unsatisfiable") return new Response(null, { status: 416, headers: { ...base, "Content-Range": `bytes */${size}` } });
  const start = range.kind === "partial" ? range.start : 0;
  const end = range.kind === "partial" ? range.end : size - 1;
  const headers: Record<string, string> = { ...base, "Content-Length": String(Math.max(0, end - start + 1)) };
  if (range.kind === "partial") headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
  const status = range.kind === "partial" ? 206 : 200;
  if (head || size === 0) return new Response(null, { status, headers });
  const body = Readable.toWeb(fs.createReadStream(file, { start, end })) as unknown as ReadableStream;
  return new Response(body, { status, headers });
}

export const AUDIO_CONTENT_TYPES: Record<string, string> = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  flac: "audio/flac",
  ogg: "audio/ogg",
  mp4: "audio/mp4",
  webm: "audio/webm",
};
