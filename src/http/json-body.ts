import type { Context, MiddlewareHandler } from "hono";
import { AppError } from "../errors.js";
import type { AppEnv } from "./env.js";

/** Largest JSON body accepted (DESIGN: 413 payload_too_large above it). */
export const MAX_JSON_BYTES = 1024 * 1024;

export function isJsonContentType(ct: string | undefined): boolean {
  if (!ct) return false;
  const type = ct.split(";")[0].trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * Reads the request body as UTF-8 text, counting bytes as they arrive so an
 * oversized body is refused without being held whole. Invalid UTF-8 is not
 * JSON, and decoding it leniently would alter the bytes we promise to keep.
 */
export async function readBodyText(c: Context, maxBytes = MAX_JSON_BYTES): Promise<string> {
  const declared = Number(c.req.header("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const body = c.req.raw.body;
  if (!body) return "";
  const parts: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    parts.push(value);
  }
  const bytes = Buffer.concat(parts, total);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new AppError("invalid_json", "request body is not valid UTF-8 JSON");
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("payload_too_large", `JSON body is larger than ${maxBytes} bytes`);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new AppError("invalid_json", "request body is not valid JSON");
  }
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
