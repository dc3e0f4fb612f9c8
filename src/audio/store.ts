import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AppError } from "../errors.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../store/private-files.js";
import { SNIFF_BYTES, sniffAudioFormat, type AudioFormat } from "./sniff.js";

export interface StoredAudio {
  sha256: string;
  bytes: number;
  format: AudioFormat;
  /** Absolute path of the stored file. */
  path: string;
}

/*
 * The audio dir (config.audioDir; default <data dir>/audio) may be shared by every process and
 * machine of an installation (an NFS mount). What makes that safe:
 * - names are content addresses (<2 hex>/<sha256>): two writers of the same audio write the same
 *   bytes under the same name, so whichever rename lands last changes nothing;
 * - a file is written under tmp/ of the same dir (same filesystem), fsynced, then renamed: a reader
 *   sees the whole file or none;
 * - temp names carry the writer's host and pid, so a sweep only judges its own host's writers.
 */

/** Content-addressed location: <audio dir>/<first two hex>/<sha256>. */
export function audioPath(audioRoot: string, sha256: string): string {
  return path.join(audioRoot, sha256.slice(0, 2), sha256);
}

export function audioTempDir(audioRoot: string): string {
  return path.join(audioRoot, "tmp");
}

/** Temp files carry their writer's host and pid, so a start-up sweep can tell a live writer's file from a dead one's. */
const TEMP_NAME = /^(?:([A-Za-z0-9_.-]+)~)?(\d+)-/;

/** The start of every temp name this process writes (files and work dirs alike). */
export function tempPrefix(): string {
  return `${tempHost()}~${process.pid}-`;
}

/** Another host's temp file is only removed once it is this old: its writer cannot be asked whether it lives. */
export const FOREIGN_TEMP_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** The host part of temp names: the host name with anything outside [A-Za-z0-9_.-] replaced. */
export function tempHost(): string {
  return os.hostname().replace(/[^A-Za-z0-9_.-]/g, "_") || "host";
}

/**
 * Removes the temp files left in tmp/ by processes that died mid-write (a crash, SIGKILL, or a
 * client abort the process never saw). Run at start-up. A file of this host is removed when its
 * writer's pid is ours (a previous process of the same pid, e.g. pid 1 in a container) or no longer
 * alive; a file of another host only when older than FOREIGN_TEMP_MAX_AGE_MS (its writer may still
 * be streaming); a file not named by this scheme always. Returns the number removed.
 */
export async function sweepAudioTemp(audioRoot: string, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(audioTempDir(audioRoot));
  } catch {
    return 0;
  }
  const host = tempHost();
  let removed = 0;
  for (const name of names) {
    const file = path.join(audioTempDir(audioRoot), name);
    if (await tempInUse(name, file, host, now)) continue;
    await fsp.rm(file, { force: true, recursive: true }).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

async function tempInUse(name: string, file: string, host: string, now: number): Promise<boolean> {
  const m = TEMP_NAME.exec(name);
  if (!m) return false;
  // Names without a host part predate shared audio dirs: they were written on this host.
  const writerHost = m[1] ?? host;
  const pid = Number(m[2]);
  if (writerHost === host) return pid !== process.pid && processAlive(pid);
  const stat = await fsp.stat(file).catch(() => null);
  return stat !== null && now - stat.mtimeMs < FOREIGN_TEMP_MAX_AGE_MS;
}

/** Temp files this process is writing now, so a stop can remove those a stalled client left half-written. */
const activeTemp = new Set<string>();

/**
 * Removes this process's temp files under `audioRoot` that are still being
 * written: at shutdown, after the listener has closed every connection, an
 * upload that never finished must not outlive the process.
 */
export async function removeActiveTemp(audioRoot: string): Promise<void> {
  const dir = audioTempDir(audioRoot) + path.sep;
  await Promise.all([...activeTemp].filter((f) => f.startsWith(dir)).map((f) => fsp.rm(f, { force: true }).catch(() => undefined)));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Streams audio to disk under the audio dir: hashed and size-checked chunk by
 * chunk (never whole in memory), sniffed from its first bytes, fsynced, then
 * renamed into its content address. Any failure removes the temporary file, so
 * a rejected or broken upload leaves nothing behind.
 */
export async function storeAudioStream(
  audioRoot: string,
  source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
  opts: { maxBytes: number },
): Promise<StoredAudio> {
  const tmpDir = audioTempDir(audioRoot);
  try {
    await fsp.mkdir(tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    throw new AppError("invalid_file", `could not store the file: ${(e as NodeJS.ErrnoException).code ?? "storage error"}`);
  }
  const tmp = path.join(tmpDir, `${tempPrefix()}${Date.now()}-${randomBytes(8).toString("hex")}.part`);
  const hash = createHash("sha256");
  let bytes = 0;
  let head: Uint8Array = new Uint8Array(0);
  let handle: fsp.FileHandle | undefined;
  activeTemp.add(tmp);
  try {
    handle = await fsp.open(tmp, "wx", PRIVATE_FILE_MODE);
    for await (const chunk of iterate(source)) {
      bytes += chunk.byteLength;
      if (bytes > opts.maxBytes) {
        throw new AppError("invalid_file", `file is larger than the limit of ${formatMiB(opts.maxBytes)}`);
      }
      if (head.length < SNIFF_BYTES) head = concatHead(head, chunk);
      hash.update(chunk);
      await handle.write(chunk);
    }
    if (bytes === 0) throw new AppError("invalid_file", "file is empty");
    const format = sniffAudioFormat(head);
    if (!format) {
      throw new AppError("invalid_file", "file is not a supported audio type (accepted: WAV, MP3, FLAC, OGG/Opus, M4A/MP4, WebM)");
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    const sha256 = hash.digest("hex");
    const finalPath = audioPath(audioRoot, sha256);
    await fsp.mkdir(path.dirname(finalPath), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Same content already stored: keep the existing file.
    if (fs.existsSync(finalPath)) await fsp.rm(tmp, { force: true });
    else await fsp.rename(tmp, finalPath);
    return { sha256, bytes, format, path: finalPath };
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    if (e instanceof AppError) throw e;
    throw new AppError("invalid_file", `could not store the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  } finally {
    activeTemp.delete(tmp);
  }
}

/** Copies a local file into the store with the same checks as an upload. */
export async function storeAudioFile(audioRoot: string, file: string, opts: { maxBytes: number }): Promise<StoredAudio> {
  let stream: fs.ReadStream;
  try {
    await fsp.access(file, fs.constants.R_OK);
    stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  } catch (e) {
    throw new AppError("invalid_file", `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? "error"}`);
  }
  return storeAudioStream(audioRoot, stream, opts);
}

export function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

async function* iterate(source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  if (Symbol.asyncIterator in source) {
    for await (const c of source as AsyncIterable<Uint8Array>) yield typeof c === "string" ? Buffer.from(c) : c;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function concatHead(head: Uint8Array, chunk: Uint8Array): Uint8Array {
  const take = chunk.subarray(0, SNIFF_BYTES - head.length);
  const out = new Uint8Array(head.length + take.length);
  out.set(head);
  out.set(take, head.length);
  return out;
}
