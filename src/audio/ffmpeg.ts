import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export interface FfmpegLocation {
  path: string;
  /** How it was found, for doctor and error messages. */
  source: "configured" | "PATH" | "npm package" | "beside executable";
}

const found = new Map<string, FfmpegLocation | null>();

/**
 * Where ffmpeg is, in this order: --ffmpeg / CALLREVIEW_FFMPEG, `ffmpeg` on PATH,
 * the @ffmpeg-installer binary in node_modules (development and `npm install`
 * deployments), then `ffmpeg` or node_modules/@ffmpeg-installer/... beside the
 * executable (the compiled binary has no node_modules of its own).
 * Each candidate must answer `-version`; the answer is cached per process.
 */
export function findFfmpeg(configured?: string): FfmpegLocation | undefined {
  const key = configured ?? "";
  if (found.has(key)) return found.get(key) ?? undefined;
  const plat = `${process.platform}-${process.arch}`;
  const candidates: FfmpegLocation[] = [];
  if (configured) candidates.push({ path: configured, source: "configured" });
  candidates.push({ path: "ffmpeg", source: "PATH" });
  try {
    const req = createRequire(import.meta.url);
    const pkg = req.resolve(["@ffmpeg-installer", plat, "package.json"].join("/"));
    candidates.push({ path: path.join(path.dirname(pkg), "ffmpeg"), source: "npm package" });
  } catch {
    // Not installed (or inside the compiled executable): try beside the executable.
  }
  const exeDir = path.dirname(process.execPath);
  candidates.push({ path: path.join(exeDir, "ffmpeg"), source: "beside executable" });
  candidates.push({ path: path.join(exeDir, "node_modules", "@ffmpeg-installer", plat, "ffmpeg"), source: "beside executable" });
  for (const c of candidates) {
    if (c.source !== "PATH" && !fs.existsSync(c.path)) continue;
    const r = spawnSync(c.path, ["-hide_banner", "-version"], { stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 });
    if (r.status === 0) {
      found.set(key, c);
      return c;
    }
  }
  found.set(key, null);
  return undefined;
}

export class FfmpegError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FfmpegError";
  }
}

/**
 * Converts any audio ffmpeg reads into 16 kHz 16-bit PCM WAV, keeping the
 * channels apart (a stereo call stays stereo so rep and customer can be split).
 * ffmpeg streams, so this holds no more than its own buffers in memory.
 */
export function convertToPcm16k(ffmpeg: string, input: string, output: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = ["-nostdin", "-hide_banner", "-v", "error", "-i", input, "-vn", "-sn", "-dn", "-ar", "16000", "-c:a", "pcm_s16le", "-f", "wav", "-y", output];
    const child = spawn(ffmpeg, args, { stdio: ["ignore", "ignore", "pipe"], signal });
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
    });
    child.once("error", (e) => reject(new FfmpegError(`ffmpeg could not run: ${e.message}`)));
    child.once("close", (code, sig) => {
      if (code === 0) resolve();
      else reject(new FfmpegError(`ffmpeg could not decode the audio (${sig ?? `exit ${code}`}): ${lastLine(err) || "no detail"}`));
    });
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n").filter(Boolean);
  return lines[lines.length - 1]?.trim() ?? "";
}
