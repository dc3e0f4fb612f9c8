import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import type { Context } from "hono";
import { storeAudioStream, type StoredAudio } from "../audio/store.js";
import { AppError } from "../errors.js";
import { discardAudioIfUnused, pinAudio } from "../intake/discard-audio.js";
import type { Services } from "../services.js";

export interface ReceivedUpload {
  /** Text parts by name (the last one wins when a name repeats); a null-prototype object, names are the client's. */
  fields: Record<string, string>;
  /** Names of text parts whose bytes were not valid UTF-8. */
  notUtf8: string[];
  /** Names of text parts cut at the size limit. */
  truncated: string[];
  /** The stored `file` part; absent when the request had none. */
  audio?: StoredAudio;
  /** Ends the pin that keeps the stored file from being discarded while its call row is written. */
  release(): void;
}

const MAX_FIELD_BYTES = 16 * 1024;
/** After a refusal, at most this much of the rest of the body is read and dropped before the answer. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/** Text parts must be UTF-8, as JSON bodies must (400 invalid_json, the JSON routes' code). */
export function assertUtf8Fields(upload: ReceivedUpload): void {
  if (upload.notUtf8.length > 0) {
    throw new AppError("invalid_json", `form field ${[...new Set(upload.notUtf8)].map((n) => JSON.stringify(n)).join(", ")} is not valid UTF-8`);
  }
}

/**
 * Receives an upload (receiveAudioUpload), checks it has UTF-8 text parts and a
 * `file`, and hands it to `use`, which writes the call. The pin is released
 * afterwards; on any failure the stored file is discarded unless a call uses it,
 * so a refused upload leaves nothing behind.
 */
export async function withAudioUpload<T>(c: Context, services: Services, use: (upload: ReceivedUpload & { audio: StoredAudio }) => Promise<T>): Promise<T> {
  const upload = await receiveAudioUpload(c, services);
  try {
    assertUtf8Fields(upload);
    const { audio } = upload;
    if (!audio) throw new AppError("no_file", "the request has no `file` part");
    const result = await use({ ...upload, audio });
    upload.release();
    return result;
  } catch (e) {
    upload.release();
    if (upload.audio) await discardAudioIfUnused(services.store.db, services.config.audioDir, upload.audio.sha256).catch(() => undefined);
    throw e;
  }
}

/**
 * Reads a multipart/form-data request as a stream: the `file` part flows
 * straight into the content-addressed audio store (hashed, sniffed, size-capped,
 * never whole in memory); text parts are small and kept. Parts other than
 * `file` that carry files are drained and ignored. On any failure the stored
 * file (if unused) is removed, so a rejected request leaves nothing behind.
 */
export async function receiveAudioUpload(c: Context, services: Services): Promise<ReceivedUpload> {
  const ct = c.req.header("content-type");
  if (!ct || !/^multipart\/form-data/i.test(ct.trim())) {
    throw new AppError("unsupported_media_type", "send the upload as multipart/form-data with a `file` part");
  }
  const body = c.req.raw.body;
  if (!body) throw new AppError("no_file", "the request has no `file` part");
  const parser = openParser(ct);
  const source = Readable.fromWeb(body as unknown as NodeWebStream<Uint8Array>);

  return new Promise<ReceivedUpload>((resolve, reject) => {
    const st: Upload = {
      services,
      source,
      parser,
      maxBytes: services.config.maxUploadMb * 1024 * 1024,
      // Part names are the client's (`constructor`, `__proto__`): no prototype to collide with.
      fields: Object.create(null) as Record<string, string>,
      truncated: [],
      notUtf8: [],
      release: () => undefined,
      settled: false,
      resolve,
      reject,
    };
    parser.on("file", (name, stream) => onFilePart(st, name, stream));
    parser.on("field", (name, value, info) => onField(st, name, value, info.valueTruncated));
    parser.on("error", () => fail(st, new AppError("invalid_file", "malformed multipart/form-data body")));
    watchInterruption(st, c.req.raw.signal);
    parser.on("close", () => onParserClose(st));
    source.pipe(parser);
  });
}

/** One upload being received: what the parser's events share. */
interface Upload {
  services: Services;
  source: Readable;
  parser: busboy.Busboy;
  maxBytes: number;
  fields: Record<string, string>;
  truncated: string[];
  notUtf8: string[];
  store?: Promise<StoredAudio>;
  release: () => void;
  settled: boolean;
  fileStream?: Readable;
  resolve: (upload: ReceivedUpload) => void;
  reject: (err: AppError) => void;
}

function openParser(contentType: string): busboy.Busboy {
  try {
    return busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: { fields: 32, parts: 64, fieldSize: MAX_FIELD_BYTES, fieldNameSize: 200 },
    });
  } catch {
    throw new AppError("invalid_file", "malformed multipart/form-data request (no boundary)");
  }
}

function onFilePart(st: Upload, name: string, stream: Readable): void {
  // The parser destroys a part with an error when the form breaks off; the store may not be reading yet, and the failure is reported through the parser's own error event.
  stream.on("error", () => undefined);
  if (name !== "file" || st.store || st.settled) {
    stream.resume();
    return;
  }
  st.fileStream = stream;
  st.store = storeAudioStream(st.services.config.audioDir, stream, { maxBytes: st.maxBytes }).then((s) => {
    st.release = pinAudio(s.sha256);
    return s;
  });
  st.store.catch((e: unknown) => {
    // The store stopped reading: whatever is left of the part is drained by the parser no more.
    stream.resume();
    fail(st, e instanceof AppError ? e : new AppError("invalid_file", "could not store the file"));
  });
}

function onField(st: Upload, name: string, value: string, valueTruncated: boolean): void {
  if (valueTruncated) st.truncated.push(name);
  // busboy decodes UTF-8 leniently, turning each invalid sequence into U+FFFD; that
  // character in a field is taken as invalid input (README "Known limits").
  if (value.includes("\uFFFD") || name.includes("\uFFFD")) st.notUtf8.push(name);
  st.fields[name] = value;
}

/**
 * A client that goes away mid-body: Node's stream errors, Bun's only closes (no error, no end)
 * and aborts the request's signal. Each ends the file part, so its temp file is removed.
 */
function watchInterruption(st: Upload, signal: AbortSignal): void {
  const interrupted = () => fail(st, new AppError("bad_request", "the upload was interrupted before its end"));
  st.source.on("error", interrupted);
  st.source.on("close", () => {
    if (!st.source.readableEnded) interrupted();
  });
  if (signal.aborted) interrupted();
  else signal.addEventListener("abort", interrupted, { once: true });
}

function onParserClose(st: Upload): void {
  if (st.settled) return;
  const { fields, truncated, notUtf8 } = st;
  if (!st.store) {
    st.settled = true;
    st.resolve({ fields, truncated, notUtf8, release: () => undefined });
    return;
  }
  st.store.then(
    (audio) => {
      if (st.settled) return;
      st.settled = true;
      st.resolve({ fields, truncated, notUtf8, audio, release: st.release });
    },
    () => undefined,
  );
}

function fail(st: Upload, err: AppError): void {
  if (st.settled) return;
  st.settled = true;
  st.source.unpipe(st.parser);
  st.parser.removeAllListeners("close");
  // A file part still streaming would never end now: end it, so the store removes its temp file and settles.
  st.fileStream?.destroy(new Error("request aborted"));
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    // The file part may have been stored completely before the failure.
    if (!st.store) return st.reject(err);
    st.store
      .then(async (s) => {
        st.release();
        await discardAudioIfUnused(st.services.store.db, st.services.config.audioDir, s.sha256);
      })
      .catch(() => undefined)
      .finally(() => st.reject(err));
  };
  drainThen(st.source, answer);
}

/**
 * Reads (and drops) what the client is still sending, up to a bound, so it
 * can read our 422 instead of seeing its upload cut off mid-write.
 */
function drainThen(source: Readable, answer: () => void): void {
  if (source.readableEnded || source.destroyed) {
    answer();
    return;
  }
  let drained = 0;
  source.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN_BYTES) {
      source.destroy();
      answer();
    }
  });
  source.once("end", answer);
  source.once("close", answer);
  source.once("error", answer);
  source.resume();
}
