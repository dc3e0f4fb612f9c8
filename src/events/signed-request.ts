import type { WebhookEndpointRow } from "../store/schema.js";
import { signingSecrets } from "./endpoints.js";
import { postJson, type PostResult } from "./http-post.js";
import { signatureHeader } from "./signing.js";
import { USER_AGENT } from "../version.js";

/** The headers of spec 6.2 plus X-Service-Event-Id; signed fresh for every attempt. */
export function deliveryHeaders(
  endpoint: WebhookEndpointRow,
  eventType: string,
  eventId: string,
  body: Uint8Array,
  now: Date,
): { headers: Record<string, string>; timestamp: number } {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    timestamp,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
      "X-Service-Event": eventType,
      "X-Service-Event-Id": eventId,
      "X-Service-Signature": signatureHeader(signingSecrets(endpoint, now), timestamp, body),
    },
  };
}

/** Signs and POSTs the payload bytes exactly as stored in the outbox. */
export async function sendSigned(
  endpoint: WebhookEndpointRow,
  event: { type: string; id: string; payload: string },
  now: Date,
  timeoutMs: number,
): Promise<PostResult & { timestamp: number }> {
  const body = Buffer.from(event.payload, "utf8");
  const { headers, timestamp } = deliveryHeaders(endpoint, event.type, event.id, body, now);
  const result = await postJson(endpoint.url, headers, body, timeoutMs);
  return { ...result, timestamp };
}
