import type { FieldErrors } from "../errors.js";
import type { CallFields } from "./accept-call.js";
import { METADATA_TOO_LARGE, metadataFits } from "./metadata-size.js";

/**
 * The inbound webhook's key table (spec 4.8): for each call attribute the
 * first present key, in this order, wins. "Present" means the key exists with
 * a value other than null or "" — senders often fill unused columns with
 * either, and an empty `external_call_id` must not hide a real `call_id`.
 */
export const INBOUND_KEYS = {
  external_call_id: ["external_call_id", "call_id", "id"],
  rep_name: ["rep_name", "agent_name", "user_name"],
  rep_email: ["rep_email", "agent_email"],
  customer_name: ["customer_name", "contact_name"],
  customer_phone: ["customer_phone", "phone", "from"],
  customer_email: ["customer_email", "email"],
  recording_url: ["recording_url", "recording", "audio_url"],
  duration_seconds: ["duration_seconds", "duration"],
  call_started_at: ["call_started_at", "started_at"],
  crm_contact_id: ["crm_contact_id", "contact_id"],
  crm_deal_id: ["crm_deal_id", "deal_id"],
} as const satisfies Partial<Record<keyof CallFields, readonly string[]>>;

export type InboundMapping = { ok: true; fields: CallFields } | { ok: false; errors: FieldErrors };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** The first present key of an attribute, or undefined. */
export function pickKey(payload: Record<string, unknown>, keys: readonly string[]): string | undefined {
  return keys.find((k) => Object.hasOwn(payload, k) && payload[k] !== null && payload[k] !== "");
}

/**
 * Maps a payload to call fields. Values are coerced where the intent is plain
 * and rejected where it is not, with the error keyed by the payload key used:
 * - ids, names, phones: strings; finite numbers become their decimal string
 *   (dialers often send numeric ids); anything else is an error.
 * - emails and recording URL must be valid (http/https only), as for POST /calls.
 * - duration: a non-negative number or numeric string, rounded to whole seconds.
 * - started at: an ISO 8601 date-time, or a number of Unix seconds; stored as ISO UTC.
 * - source_system: a string; metadata: an object (high_value_opportunity boolean).
 * Every other key is kept only in the raw payload.
 */
export function mapInboundPayload(payload: Record<string, unknown>): InboundMapping {
  const fields: CallFields = {};
  const errors: FieldErrors = {};
  const fail = (key: string, msg: string) => void (errors[key] ??= []).push(msg);

  const stringish = (attr: keyof typeof INBOUND_KEYS, max: number): string | undefined => {
    const key = pickKey(payload, INBOUND_KEYS[attr]);
    if (!key) return undefined;
    const v = payload[key];
    let s: string;
    if (typeof v === "string") s = v.trim();
    else if (typeof v === "number" && Number.isFinite(v)) s = String(v);
    else return void fail(key, "must be a string or a number");
    if (s.length === 0) return void fail(key, "must not be blank");
    if (s.length > max) return void fail(key, `must be at most ${max} characters`);
    return s;
  };

  fields.external_call_id = stringish("external_call_id", 255);
  fields.rep_name = stringish("rep_name", 255);
  fields.customer_name = stringish("customer_name", 255);
  fields.customer_phone = stringish("customer_phone", 64);
  fields.crm_contact_id = stringish("crm_contact_id", 255);
  fields.crm_deal_id = stringish("crm_deal_id", 255);

  mapContactAndTiming(payload, fields, fail);
  mapSourceAndMetadata(payload, fields, fail);

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  for (const k of Object.keys(fields) as (keyof CallFields)[]) if (fields[k] === undefined) delete fields[k];
  return { ok: true, fields };
}

type Fail = (key: string, msg: string) => void;

/** Emails, recording URL, duration and start time: each under the first of its aliases present. */
function mapContactAndTiming(payload: Record<string, unknown>, fields: CallFields, fail: Fail): void {
  for (const attr of ["rep_email", "customer_email"] as const) {
    const key = pickKey(payload, INBOUND_KEYS[attr]);
    if (!key) continue;
    const v = payload[key];
    if (typeof v !== "string" || v.length > 320 || !EMAIL.test(v.trim())) fail(key, "must be an email address");
    else fields[attr] = v.trim();
  }

  const urlKey = pickKey(payload, INBOUND_KEYS.recording_url);
  if (urlKey) {
    const v = payload[urlKey];
    if (typeof v !== "string" || v.length > 2048 || !isHttpUrl(v.trim())) fail(urlKey, "must be an absolute http(s) URL");
    else fields.recording_url = v.trim();
  }

  const durKey = pickKey(payload, INBOUND_KEYS.duration_seconds);
  if (durKey) {
    const v = payload[durKey];
    const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isFinite(n) || n < 0 || n > 7 * 24 * 3600) fail(durKey, "must be a number of seconds from 0 to 604800");
    else fields.duration_seconds = Math.round(n);
  }

  const startKey = pickKey(payload, INBOUND_KEYS.call_started_at);
  if (startKey) {
    const v = payload[startKey];
    const iso = toIsoDateTime(v);
    if (!iso) fail(startKey, "must be an ISO 8601 date-time or Unix seconds");
    else fields.call_started_at = iso;
  }
}

function mapSourceAndMetadata(payload: Record<string, unknown>, fields: CallFields, fail: Fail): void {
  if (Object.hasOwn(payload, "source_system") && payload.source_system !== null && payload.source_system !== "") {
    const v = payload.source_system;
    if (typeof v !== "string" || v.length > 100) fail("source_system", "must be a string of at most 100 characters");
    else fields.source_system = v;
  }

  if (Object.hasOwn(payload, "metadata") && payload.metadata !== null) {
    const m = payload.metadata;
    if (typeof m !== "object" || Array.isArray(m)) fail("metadata", "must be an object");
    else if (Object.hasOwn(m, "high_value_opportunity") && typeof (m as Record<string, unknown>).high_value_opportunity !== "boolean") {
      fail("metadata.high_value_opportunity", "must be a boolean");
    } else if (!metadataFits(m)) fail("metadata", METADATA_TOO_LARGE);
    else fields.metadata = m as Record<string, unknown>;
  }
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
  } catch {
    return false;
  }
}

function toIsoDateTime(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v) && v >= 0 && v < 1e11) return new Date(v * 1000).toISOString();
  if (typeof v === "string" && ISO_DATE_TIME.test(v.trim())) {
    const ms = Date.parse(v.trim());
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  return undefined;
}
