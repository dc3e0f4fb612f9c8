import { storeAudioStream, type StoredAudio } from "../audio/store.js";
import { isAppError } from "../errors.js";
import { USER_AGENT } from "../version.js";
import { pinnedGet, type PinnedResponse } from "../net/pinned-get.js";
import { DownloadBlocked, DownloadPolicy } from "./download-policy.js";
import { StageError } from "./ports.js";

export const MAX_REDIRECTS = 5;

export interface DownloadOptions {
  /** The audio dir the recording is stored in. */
  audioRoot: string;
  maxBytes: number;
  /** Until the response headers arrive (connect + server think time), per hop. */
  connectTimeoutMs: number;
  /** For the whole download, redirects and body included. */
  totalTimeoutMs: number;
  /** Where the download may connect; default: the built-in denies only. */
  policy?: DownloadPolicy;
  /** Longest wait for the next bytes of the body: a stalled server fails fast, a slow steady one does not. */
  idleTimeoutMs?: number;
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
  const total = AbortSignal.timeout(opts.totalTimeoutMs);
  const signal = opts.signal ? AbortSignal.any([total, opts.signal]) : total;
  let current = checkUrl(url);
  for (let hop = 0; ; hop++) {
    const res = await get(current, policy, opts, signal, total);
    if (res.status >= 300 && res.status < 400 && res.headers.location) {
      res.destroy();
      if (hop >= MAX_REDIRECTS) throw fail(`more than ${MAX_REDIRECTS} redirects`, false, "too many redirects");
      current = checkUrl(new URL(res.headers.location, current).toString());
      continue;
    }
    if (res.status < 200 || res.status >= 300) {
      res.destroy();
      const transient = res.status === 404 || res.status === 408 || res.status === 429 || res.status >= 500;
      throw fail(`server answered HTTP ${res.status}`, transient, `HTTP ${res.status}`);
    }
    const declared = Number(res.headers["content-length"] ?? NaN);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      res.destroy();
      throw fail(`recording is ${declared} bytes, over the limit of ${opts.maxBytes}`, false, "too large");
    }
    return storeBody(res, opts, total);
  }
}

/**
 * One hop: resolve and check the host, then GET from a checked address (the
 * next one when a connection is refused). Resolves when the response headers
 * arrive, within the connect timeout.
 */
async function get(u: URL, policy: DownloadPolicy, opts: DownloadOptions, signal: AbortSignal, total: AbortSignal): Promise<PinnedResponse> {
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  const headers = new AbortController();
  const headerTimer = setTimeout(() => headers.abort(), opts.connectTimeoutMs);
  const hopSignal = AbortSignal.any([signal, headers.signal]);
  try {
    const addresses = await abortable(policy.resolve(u.hostname, port), hopSignal);
    let lastError: unknown;
    for (const a of addresses) {
      try {
        // The hop signal carries the connect timeout until the headers are in; the timer is cleared on return.
        return await pinnedGet(u, { address: a.address, headers: requestHeaders(u), signal: hopSignal });
      } catch (e) {
        lastError = e;
        const code = (e as { code?: string }).code;
        if (hopSignal.aborted || !(code === "ECONNREFUSED" || code === "EHOSTUNREACH" || code === "ENETUNREACH")) break;
      }
    }
    throw lastError;
  } catch (e) {
    if (e instanceof DownloadBlocked) throw fail(`${u.host} is blocked by the download policy (${e.message})`, false, "blocked by download policy");
    if (total.aborted) throw timeoutError(opts);
    if (headers.signal.aborted) throw fail(`no response from ${u.host} within ${opts.connectTimeoutMs} ms`, true, "timed out");
    if (signal.aborted) throw fail("download cancelled", true, "cancelled");
    const detail = networkDetail(e);
    // A certificate that does not fit the host will not fit it on the next attempt either.
    throw fail(`could not fetch ${u.host}: ${describe(e)}`, detail !== "TLS error", detail);
  } finally {
    clearTimeout(headerTimer);
  }
}

function requestHeaders(u: URL): Record<string, string> {
  const h: Record<string, string> = { "User-Agent": USER_AGENT, Accept: "audio/*, */*;q=0.1" };
  // user:pass@ in the URL: Basic auth, as browsers and curl do.
  if (u.username || u.password)
    h.Authorization = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}`;
  return h;
}

/** Rejects when the signal aborts first (DNS lookups cannot be cancelled; their answer is then ignored). */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

async function storeBody(res: PinnedResponse, opts: DownloadOptions, total: AbortSignal): Promise<StoredAudio> {
  // Transport errors while streaming are retryable; the store's own verdicts (size, type) are not.
  let streamError: unknown;
  async function* guarded(): AsyncIterable<Uint8Array> {
    const it = res.body[Symbol.asyncIterator]();
    for (;;) {
      let chunk: IteratorResult<Uint8Array>;
      try {
        chunk = await nextWithin(it, opts.idleTimeoutMs);
      } catch (e) {
        streamError = e;
        throw e;
      }
      if (chunk.done) return;
      yield chunk.value;
    }
  }
  try {
    return await storeAudioStream(opts.audioRoot, guarded(), { maxBytes: opts.maxBytes });
  } catch (e) {
    res.destroy();
    if (total.aborted) throw timeoutError(opts);
    if (streamError instanceof IdleTimeout) throw fail(`no data for ${opts.idleTimeoutMs} ms (server stalled)`, true, "timed out");
    if (streamError !== undefined) throw fail(`connection broke during download: ${describe(streamError)}`, true, "connection broke");
    if (isAppError(e)) throw fail(e.message, false, storeDetail(e.message));
    throw fail(describe(e), true, "could not store");
  } finally {
    res.destroy();
  }
}

class IdleTimeout extends Error {}

function nextWithin(it: AsyncIterator<Uint8Array>, idleMs: number | undefined): Promise<IteratorResult<Uint8Array>> {
  if (!idleMs) return it.next();
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new IdleTimeout()), idleMs)));
  return Promise.race([it.next(), idle]).finally(() => clearTimeout(timer));
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
  if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/i.test(code)) return "TLS error";
  return "connection failed";
}

function describe(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return err?.code ?? err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e);
}
