import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import type { Context } from "hono";
import { storeAudioStream, type StoredAudio } from "../audio/store.js";
import { AppError } from "../errors.js";
import { discardAudioIfUnused, pinAudio } from "../intake/discard-audio.js";
import type { Services } from "../services.js";

export interface ReceivedUpload {
  /** Text parts by name (the last one wins when a name repeats). */
  fields: Record<string, string>;
  /** Names of text parts cut at the size limit. */
  truncated: string[];
  /** The stored `file` part; absent when the request had none. */
  audio?: StoredAudio;
  /** Ends the pin that keeps the stored file from being discarded while its call row is written. */
  release(): void;
}

const MAX_FIELD_BYTES = 16 * 1024;

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
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": ct }, limits: { fields: 32, parts: 64, fieldSize: MAX_FIELD_BYTES, fieldNameSize: 200 } });
  } catch {
    throw new AppError("invalid_file", "malformed multipart/form-data request (no boundary)");
  }
  const maxBytes = services.config.maxUploadMb * 1024 * 1024;
  const source = Readable.fromWeb(body as unknown as NodeWebStream<Uint8Array>);

  return new Promise<ReceivedUpload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const truncated: string[] = [];
    let store: Promise<StoredAudio> | undefined;
    let release = () => undefined as void;
    let settled = false;
    let fileStream: Readable | undefined;

    const fail = (err: AppError) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      parser.removeAllListeners("close");
      // A file part still streaming would never end now: end it, so the store removes its temp file and settles.
      fileStream?.destroy(new Error("request aborted"));
      // The file part may have been stored completely before the failure.
      store
        ?.then(async (s) => {
          release();
          await discardAudioIfUnused(services.store.db, services.config.dataDir, s.sha256);
        })
        .catch(() => undefined)
        .finally(() => reject(err));
      if (!store) reject(err);
    };

    parser.on("file", (name, stream) => {
      if (name !== "file" || store || settled) {
        stream.resume();
        return;
      }
      fileStream = stream;
      store = storeAudioStream(services.config.dataDir, stream, { maxBytes }).then((s) => {
        release = pinAudio(s.sha256);
        return s;
      });
      store.catch((e: unknown) => {
        // The store stopped reading: whatever is left of the part is drained by the parser no more.
        stream.resume();
        fail(e instanceof AppError ? e : new AppError("invalid_file", "could not store the file"));
      });
    });
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) truncated.push(name);
      fields[name] = value;
    });
    parser.on("error", () => fail(new AppError("invalid_file", "malformed multipart/form-data body")));
    source.on("error", () => fail(new AppError("invalid_file", "the upload was interrupted")));
    parser.on("close", () => {
      if (settled) return;
      if (!store) {
        settled = true;
        resolve({ fields, truncated, release: () => undefined });
        return;
      }
      store.then(
        (audio) => {
          if (settled) return;
          settled = true;
          resolve({ fields, truncated, audio, release });
        },
        () => undefined,
      );
    });
    source.pipe(parser);
  });
}
