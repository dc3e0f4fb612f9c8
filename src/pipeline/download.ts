import http from "node:http";
import https from "node:https";
import net from "node:net";
import { storeAudioStream, type StoredAudio } from "../audio/store.js";
import { isAppError } from "../errors.js";
import { USER_AGENT } from "../version.js";
import { DownloadPolicy } from "./download-policy.js";
import { StageError } from "./ports.js";

export const MAX_REDIRECTS = 5;

export interface DownloadOptions {
  dataDir: string;
  maxBytes: number;
  /** Until the response headers arrive (connect + server think time), per hop. */
  connectTimeoutMs: number;
  /** For the whole download, redirects and body included. */
  totalTimeoutMs: number;
  /** Where the download may connect; default: the built-in denies only. */
  policy?: DownloadPolicy;
  signal?: AbortSignal;
}

/**
 * Fetches a recording_url into the audio store: http(s) only, redirects
 * followed by hand (at most 5), every hop's resolved address checked against
 * the download policy and connected to as checked, streamed to disk under the
 * size cap, content sniffed. Failures are StageErrors with reason
 * `download_failed` and a short client-safe detail: retryable when a later
 * attempt may succeed (network, timeouts, 404/408/429/5xx), final when it
 * cannot (bad scheme, policy, not audio, too large, redirect loop, other 4xx).
 * Messages name the host, never the URL (it may carry credentials).
 */
export async function downloadRecording(url: string, opts: DownloadOptions): Promise<StoredAudio> {
  const policy = opts.policy ?? new DownloadPolicy();
  const total = new AbortController();
  const totalTimer = setTimeout(() => total.abort(), opts.totalTimeoutMs);
  const onOuterAbort = () => total.abort();
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const timedOut = () => total.signal.aborted && !opts.signal?.aborted;
  try {
    let current = checkUrl(url);
    for (let hop = 0; ; hop++) {
      const res = await get(current, policy, opts, total.signal, timedOut);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.destroy();
        if (hop >= MAX_REDIRECTS) throw fail(`more than ${MAX_REDIRECTS} redirects`, false, "too many redirects");
        current = checkUrl(new URL(res.headers.location, current).toString());
        continue;
      }
      if (status < 200 || status >= 300) {
        res.destroy();
        const transient = status === 404 || status === 408 || status === 429 || status >= 500;
        throw fail(`server answered HTTP ${status}`, transient, `HTTP ${status}`);
      }
      const declared = Number(res.headers["content-length"] ?? NaN);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.destroy();
        throw fail(`recording is ${declared} bytes, over the limit of ${opts.maxBytes}`, false, "too large");
      }
      return await storeBody(res, opts, timedOut);
    }
  } finally {
    clearTimeout(totalTimer);
    opts.signal?.removeEventListener("abort", onOuterAbort);
  }
}

/** One GET, resolved when the response headers arrive. */
function get(u: URL, policy: DownloadPolicy, opts: DownloadOptions, signal: AbortSignal, timedOut: () => boolean): Promise<http.IncomingMessage> {
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  const hostname = u.hostname.replace(/^\[|\]$/g, "");
  let blocked: string | undefined;
  // An address literal is never looked up, so it is checked here; names are checked in the lookup.
  if (net.isIP(hostname)) {
    const d = policy.check(hostname, hostname, port);
    if (!d.allowed) return Promise.reject(blockedError(u, `${hostname}: ${d.why}`));
  }
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(timedOut() ? timeoutError(opts) : fail("download cancelled", true, "cancelled"));
    const mod = u.protocol === "https:" ? https : http;
    const req = mod.request({
      protocol: u.protocol,
      hostname,
      port,
      path: `${u.pathname}${u.search}`,
      method: "GET",
      headers: { accept: "audio/*, */*;q=0.1", "user-agent": USER_AGENT },
      auth: u.username || u.password ? `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` : undefined,
      agent: false,
      lookup: policy.lookup(port, (why) => (blocked = why)),
    });
    let headersTimedOut = false;
    // The connect timeout covers only the wait for response headers; the body runs under the total timeout alone.
    const headerTimer = setTimeout(() => {
      headersTimedOut = true;
      req.destroy(new Error("no response"));
    }, opts.connectTimeoutMs);
    const onAbort = () => req.destroy(new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    const settle = () => {
      clearTimeout(headerTimer);
      signal.removeEventListener("abort", onAbort);
    };
    req.once("response", (res) => {
      settle();
      // The body stream ends with an error when the total timeout fires mid-download.
      const onBodyAbort = () => res.destroy(new Error("aborted"));
      signal.addEventListener("abort", onBodyAbort, { once: true });
      res.once("close", () => signal.removeEventListener("abort", onBodyAbort));
      resolve(res);
    });
    req.once("error", (e) => {
      settle();
      if (blocked !== undefined) reject(blockedError(u, blocked));
      else if (timedOut()) reject(timeoutError(opts));
      else if (signal.aborted) reject(fail("download cancelled", true, "cancelled"));
      else if (headersTimedOut) reject(fail(`no response from ${u.host} within ${opts.connectTimeoutMs} ms`, true, "timed out"));
      else reject(fail(`could not fetch ${u.host}: ${describe(e)}`, true, networkDetail(e)));
    });
    req.end();
  });
}

async function storeBody(res: http.IncomingMessage, opts: DownloadOptions, timedOut: () => boolean): Promise<StoredAudio> {
  // Transport errors while streaming are retryable; the store's own verdicts (size, type) are not.
  let streamError: unknown;
  async function* guarded(): AsyncIterable<Uint8Array> {
    try {
      for await (const chunk of res) yield chunk as Uint8Array;
    } catch (e) {
      streamError = e;
      throw e;
    }
    // A body cut short by the total timeout may end without an error event.
    if (timedOut()) {
      streamError = new Error("aborted");
      throw streamError;
    }
  }
  try {
    return await storeAudioStream(opts.dataDir, guarded(), { maxBytes: opts.maxBytes });
  } catch (e) {
    res.destroy();
    if (timedOut()) throw timeoutError(opts);
    if (streamError !== undefined) throw fail(`connection broke during download: ${describe(streamError)}`, true, "connection broke");
    if (isAppError(e)) throw fail(e.message, false, storeDetail(e.message));
    throw fail(describe(e), true, "could not store");
  }
}

function checkUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw fail(`not a valid URL`, false, "invalid URL");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw fail(`only http and https URLs are fetched, not ${u.protocol}`, false, "invalid URL");
  return u;
}

function blockedError(u: URL, why: string): StageError {
  return fail(`${u.host} is blocked by the download policy (${why})`, false, "blocked by download policy");
}

function timeoutError(opts: DownloadOptions): StageError {
  return fail(`download timed out after ${opts.totalTimeoutMs} ms`, true, "timed out");
}

function fail(message: string, retryable: boolean, detail: string): StageError {
  return new StageError("download_failed", `recording_url: ${message}`, retryable, detail);
}

/** The audio store's verdicts, in the few words the client sees. */
function storeDetail(message: string): string {
  if (/larger than/.test(message)) return "too large";
  if (/empty/.test(message)) return "empty file";
  if (/not a supported audio type/.test(message)) return "not audio";
  return "could not store";
}

function networkDetail(e: unknown): string {
  const code = (e as { code?: string })?.code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ETIMEDOUT") return "timed out";
  if (code && /CERT|SSL|TLS/i.test(code)) return "TLS error";
  return "connection failed";
}

function describe(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return err?.code ?? err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e);
}
