import { createHmac } from "node:crypto";

/**
 * Spec 6.2 signature: hex HMAC-SHA256 keyed by the UTF-8 bytes of the secret
 * exactly as shown to the customer (`whsec_…`, prefix included), over
 * `<t>.<raw body>`. Customers reimplement this from the docs, so the key is the
 * visible string rather than some decoding of it.
 */
export function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  const mac = createHmac("sha256", Buffer.from(secret, "utf8"));
  mac.update(`${timestamp}.`, "utf8");
  mac.update(typeof body === "string" ? Buffer.from(body, "utf8") : body);
  return mac.digest("hex");
}

/** `t=<unix>,v1=<sig>[,v1=<sig>…]`: one v1 per secret currently valid, the newest first. */
export function signatureHeader(secrets: string[], timestamp: number, body: string | Uint8Array): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, body)}`)].join(",");
}
