import { storeAudioStream, type StoredAudio } from "../audio/store.js";
import { isAppError } from "../errors.js";
import { StageError } from "./ports.js";

export const MAX_REDIRECTS = 5;

export interface DownloadOptions {
  dataDir: string;
  maxBytes: number;
  /** Until the response headers arrive (connect + server think time), per hop. */
  connectTimeoutMs: number;
  /** For the whole download, redirects and body included. */
  totalTimeoutMs: number;
  /** Longest wait for the next bytes of the body: a stalled server fails fast, a slow steady one does not. */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Fetches a recording_url into the audio store: http(s) only, redirects
 * followed by hand (at most 5, each re-checked), streamed to disk under the
 * size cap, content sniffed. Failures are StageErrors with reason
 * `download_failed`: retryable when a later attempt may succeed (network,
 * timeouts, 404/408/429/5xx), final when it cannot (bad scheme, not audio,
 * too large, redirect loop, other 4xx).
 */
export async function downloadRecording(url: string, opts: DownloadOptions): Promise<StoredAudio> {
  const total = AbortSignal.timeout(opts.totalTimeoutMs);
  const signal = opts.signal ? AbortSignal.any([total, opts.signal]) : total;
  let current = checkUrl(url);
  for (let hop = 0; ; hop++) {
    // The connect timeout covers only the wait for response headers; the body runs under the total timeout alone.
    const headers = new AbortController();
    const headerTimer = setTimeout(() => headers.abort(), opts.connectTimeoutMs);
    let res: Response;
    try {
      res = await fetch(current, { redirect: "manual", signal: AbortSignal.any([signal, headers.signal]), headers: { accept: "audio/*, */*;q=0.1" } });
    } catch (e) {
      if (total.aborted) throw fail(`download timed out after ${opts.totalTimeoutMs} ms`, true);
      if (headers.signal.aborted) throw fail(`no response from ${current.host} within ${opts.connectTimeoutMs} ms`, true);
      throw fail(`could not fetch ${current.host}: ${describe(e)}`, true);
    } finally {
      clearTimeout(headerTimer);
    }
    if (res.status >= 300 && res.status < 400 && res.headers.has("location")) {
      await res.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw fail(`more than ${MAX_REDIRECTS} redirects`, false);
      current = checkUrl(new URL(res.headers.get("location")!, current).toString());
      continue;
    }
    if (res.status < 200 || res.status >= 300) {
      await res.body?.cancel().catch(() => undefined);
      const transient = res.status === 404 || res.status === 408 || res.status === 429 || res.status >= 500;
      throw fail(`server answered HTTP ${res.status}`, transient);
    }
    const declared = Number(res.headers.get("content-length") ?? NaN);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw fail(`recording is ${declared} bytes, over the limit of ${opts.maxBytes}`, false);
    }
    if (!res.body) throw fail("empty response body", false);
    return storeBody(res.body, opts, total);
  }
}

async function storeBody(body: ReadableStream<Uint8Array>, opts: DownloadOptions, total: AbortSignal): Promise<StoredAudio> {
  // Transport errors while streaming are retryable; the store's own verdicts (size, type) are not.
  let streamError: unknown;
  // The reader keeps its lock to the end (releaseLock on a fetch body is unreliable in Bun); cancel goes through it.
  const reader = body.getReader();
  async function* guarded(): AsyncIterable<Uint8Array> {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await readWithin(reader, opts.idleTimeoutMs);
      } catch (e) {
        streamError = e;
        throw e;
      }
      if (chunk.done) return;
      yield chunk.value;
    }
  }
  try {
    return await storeAudioStream(opts.dataDir, guarded(), { maxBytes: opts.maxBytes });
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    if (total.aborted) throw fail(`download timed out after ${opts.totalTimeoutMs} ms`, true);
    if (streamError instanceof IdleTimeout) throw fail(`no data for ${opts.idleTimeoutMs} ms (server stalled)`, true);
    if (streamError !== undefined) throw fail(`connection broke during download: ${describe(streamError)}`, true);
    if (isAppError(e)) throw fail(e.message, false);
    throw fail(describe(e), true);
  }
}

class IdleTimeout extends Error {}

function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, idleMs: number | undefined): Promise<ReadableStreamReadResult<Uint8Array>> {
  if (!idleMs) return reader.read();
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new IdleTimeout()), idleMs)));
  return Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
}

function checkUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw fail(`not a valid URL`, false);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw fail(`only http and https URLs are fetched, not ${u.protocol}`, false);
  return u;
}

function fail(message: string, retryable: boolean): StageError {
  return new StageError("download_failed", `recording_url: ${message}`, retryable);
}

function describe(e: unknown): string {
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  return err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e);
}
