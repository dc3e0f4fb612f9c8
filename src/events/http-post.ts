import { performance } from "node:perf_hooks";

export interface PostResult {
  /** HTTP status, or null when no response arrived (timeout, refused, DNS, TLS). */
  status: number | null;
  retryAfter: string | null;
  /** Why there is no 2xx, in a few words (never request headers or body). */
  error: string | null;
  durationMs: number;
}

/** Response bodies are read (so the connection can be reused) but never kept beyond this. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One POST with a hard overall timeout (connect + response + body). Redirects
 * are not followed: a signed delivery goes only where it was registered.
 */
export async function postJson(url: string, headers: Record<string, string>, body: Uint8Array, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, { method: "POST", headers, body: body as unknown as BodyInit, redirect: "manual", signal: controller.signal });
    await drain(res);
    const ok = res.status >= 200 && res.status < 300;
    return {
      status: res.status,
      retryAfter: res.headers.get("retry-after"),
      error: ok ? null : `receiver answered HTTP ${res.status}`,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (e) {
    const error = controller.signal.aborted ? `timed out after ${timeoutMs} ms` : describeNetworkError(e);
    return { status: null, retryAfter: null, error, durationMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

async function drain(res: Response): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    seen += value.byteLength;
    if (seen > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      return;
    }
  }
}

function describeNetworkError(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (e as { code?: string }).code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "DNS lookup failed";
  if (code === "ECONNRESET") return "connection reset";
  if (code) return `network error ${code}`;
  return `network error: ${cause?.message ?? (e as Error).message ?? String(e)}`;
}
