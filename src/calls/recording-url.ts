/**
 * A recording_url may carry `user:pass@` for the recording server. The
 * credentials are used for the download only: everything that shows, logs or
 * keeps the URL afterwards goes through withoutCredentials().
 */
export function withoutCredentials(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Not a URL: strip anything shaped like userinfo anyway rather than show it.
    return raw.replace(/\/\/[^/@]*@/, "//");
  }
  if (!u.username && !u.password) return raw;
  u.username = "";
  u.password = "";
  return u.toString();
}

export function hasCredentials(raw: string): boolean {
  return withoutCredentials(raw) !== raw;
}

/**
 * The inbound webhook's payload is kept as received, except that a
 * credential-carrying recording URL in it is stored without its credentials:
 * the call's own recording_url holds them for the download.
 */
export function scrubRawPayload(raw: string | null | undefined, recordingUrl: string | null | undefined): string | null {
  if (raw == null) return null;
  if (!recordingUrl || !hasCredentials(recordingUrl)) return raw;
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return raw;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(payload)) out[k] = typeof v === "string" && hasCredentials(v.trim()) ? withoutCredentials(v.trim()) : v;
  return JSON.stringify(out);
}
