import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { findFfmpeg } from "../../src/audio/ffmpeg.js";
import { readPcm16Window, readWavInfo, writeWav } from "../../src/audio/wav.js";

/** The mono 16-bit samples of a 16 kHz WAV fixture. */
export function wavSamples(file: string): Int16Array {
  const info = readWavInfo(file);
  return readPcm16Window(file, info, 0, 0, info.frames);
}

/** A stereo WAV with `left` and `right` (the shorter one padded with silence). */
export function writeStereo(file: string, left: Int16Array, right: Int16Array): void {
  const n = Math.max(left.length, right.length);
  const pad = (a: Int16Array) => {
    const out = new Int16Array(n);
    out.set(a);
    return out;
  };
  writeWav(file, [pad(left), pad(right)]);
}

/** Encodes audio with the real ffmpeg binary (OGG/Opus, M4A/AAC, ...). */
export function ffmpegEncode(input: string, output: string, codecArgs: string[]): void {
  const ffmpeg = findFfmpeg();
  if (!ffmpeg) throw new Error("no ffmpeg for the test");
  const r = spawnSync(ffmpeg.path, ["-nostdin", "-v", "error", "-y", "-i", input, ...codecArgs, output], { encoding: "utf8" });
  if (r.status !== 0 || !fs.existsSync(output)) throw new Error(`ffmpeg failed: ${r.stderr}`);
}
