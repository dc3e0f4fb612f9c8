import { createHmac, timingSafeEqual } from "node:crypto";

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

export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The receiver side, as docs/webhooks.md tells customers to write it;
 * `webhook test` and our own tests use it to check what we send.
 */
export function verifySignature(header: string, secret: string, body: string | Uint8Array, nowSeconds: number, toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS): boolean {
  let t: number | undefined;
  const sigs: string[] = [];
  for (const part of header.split(",")) {
    const i = part.indexOf("=");
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (k === "t" && /^\d+$/.test(v)) t = Number(v);
    else if (k === "v1") sigs.push(v);
  }
  if (t === undefined || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(computeSignature(secret, t, body), "hex");
  return sigs.some((s) => {
    const got = Buffer.from(s, "hex");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
