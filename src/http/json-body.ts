import type { Context, MiddlewareHandler } from "hono";
import { AppError } from "../errors.js";
import type { AppEnv } from "./env.js";
import { checkJsonDepth, checkJsonValue } from "./json-limits.js";

/** Largest JSON body accepted (DESIGN: 413 payload_too_large above it). */
export const MAX_JSON_BYTES = 1024 * 1024;

export function isJsonContentType(ct: string | undefined): boolean {
  if (!ct) return false;
  const type = ct.split(";")[0].trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * Reads the request body as UTF-8 text, counting bytes as they arrive so an
 * oversized body is refused without being held whole. Invalid UTF-8 is refused
 * (400 invalid_json on every text route): decoding it leniently would alter the
 * bytes we promise to keep. A body cut off by the client is a 400 bad_request,
 * not an unexpected error.
 */
export async function readBodyText(c: Context, maxBytes = MAX_JSON_BYTES, what = "JSON body"): Promise<string> {
  const lengthHeader = c.req.header("content-length");
  const declared = lengthHeader === undefined || lengthHeader.trim() === "" ? NaN : Number(lengthHeader);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(what, maxBytes);
  const body = c.req.raw.body;
  if (!body) return "";
  let bytes: Uint8Array;
  try {
    // A declared length bounds what the listener reads, and reading whole is far cheaper than chunk by chunk.
    const read = Number.isSafeInteger(declared) && declared >= 0 ? c.req.raw.arrayBuffer().then((b) => new Uint8Array(b)) : readCapped(body, maxBytes, what);
    // Bun leaves the read pending forever when the client left before it started; the request's signal tells.
    bytes = await untilAborted(c.req.raw.signal, read);
    if (bytes.byteLength > maxBytes) throw tooLarge(what, maxBytes);
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError("bad_request", "the request body was interrupted before its end");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new AppError("invalid_json", `the ${what} is not valid UTF-8`);
  }
}

function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new Error("aborted"));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A body of unknown length (chunked): counted as it arrives, refused as soon as it passes the cap. */
async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number, what: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(what, maxBytes);
    }
    parts.push(value);
  }
  return Buffer.concat(parts, total);
}

function tooLarge(what: string, maxBytes: number): AppError {
  return new AppError("payload_too_large", `${what} is larger than ${maxBytes} bytes`);
}

/** Parses a request body within the shape limits of json-limits.ts (depth, keys, no `__proto__`). */
export function parseJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  checkJsonDepth(body);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new AppError("invalid_json", "request body is not valid JSON");
  }
  checkJsonValue(value);
  return value;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Route middleware ahead of the schema validator: content type, size, syntax
 * and "is an object" are checked here with their own codes, then the text is
 * left in Hono's body cache for the validator, which only sees well-formed
 * JSON objects and so only ever answers 422 validation_failed.
 */
export const jsonObjectBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isJsonContentType(c.req.header("content-type"))) {
    throw new AppError("unsupported_media_type", "send the body as application/json");
  }
  const text = await readBodyText(c);
  const value = parseJson(text);
  if (!isPlainObject(value)) {
    throw new AppError("validation_failed", "request body must be a JSON object", { errors: { body: ["must be a JSON object"] } });
  }
  (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
  await next();
};
