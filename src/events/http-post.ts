import http from "node:http";
import https from "node:https";
import { performance } from "node:perf_hooks";

export interface PostResult {
  /** HTTP status, or null when no response arrived (timeout, refused, DNS, TLS). */
  status: number | null;
  retryAfter: string | null;
  /** Why there is no 2xx, in a few words (never request headers or body). */
  error: string | null;
  durationMs: number;
}

/** Response bodies are read (so the connection can be reused) but never kept. */
const MAX_RESPONSE_BYTES = 64 * 1024;

// Keep-alive: a busy endpoint reuses its connections instead of a TCP (and TLS) handshake per delivery.
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 }),
};

/**
 * One POST with a hard overall timeout (connect + response + body). Redirects
 * are not followed: a signed delivery goes only where it was registered.
 */
export function postJson(url: string, headers: Record<string, string>, body: Uint8Array, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<PostResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: elapsed() });
    };
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      finish({ status: null, retryAfter: null, error: "invalid URL" });
      return;
    }
    const mod = u.protocol === "https:" ? https : http;
    const req = mod.request(
      u,
      { method: "POST", headers: { ...headers, "Content-Length": String(body.byteLength) }, agent: agents[u.protocol as "http:" | "https:"] },
      (res) => {
        let seen = 0;
        res.on("data", (c: Buffer) => {
          seen += c.length;
          if (seen > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = () => {
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          const ra = res.headers["retry-after"];
          finish({ status, retryAfter: Array.isArray(ra) ? ra[0] : (ra ?? null), error: ok ? null : `receiver answered HTTP ${status}` });
        };
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, retryAfter: null, error: `timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on("error", (e) => finish({ status: null, retryAfter: null, error: describeNetworkError(e) }));
    req.end(body);
  });
}

function describeNetworkError(e: unknown): string {
  const code = (e as { code?: string }).code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "DNS lookup failed";
  if (code === "ECONNRESET") return "connection reset";
  if (code) return `network error ${code}`;
  return `network error: ${(e as Error).message ?? String(e)}`;
}
