import fs from "node:fs";
import path from "node:path";
import { StageError } from "../pipeline/ports.js";
import { convertToPcm16k, FfmpegError, findFfmpeg } from "./ffmpeg.js";
import { SNIFF_BYTES, sniffAudioFormat, type AudioFormat } from "./sniff.js";
import { isPcm16k, readPcm16Window, readWavInfo, WavError, type WavInfo } from "./wav.js";

export const SAMPLE_RATE = 16_000;

/** 16 kHz 16-bit PCM we read ourselves, window by window. */
export interface PcmAudio {
  kind: "pcm";
  format: AudioFormat;
  file: string;
  info: WavInfo;
  /** 2 = a stereo call (rep and customer apart); 1 = mono (more than two channels are mixed down). */
  channels: 1 | 2;
  frames: number;
  durationSeconds: number;
  /** How the PCM was obtained, for logs. */
  via: "wav" | "ffmpeg";
  read(channel: 0 | 1, startFrame: number, count: number): Int16Array;
}

/** A WAV / MP3 / FLAC file handed to the engine's own decoder because no ffmpeg is available. */
export interface EncodedAudio {
  kind: "encoded";
  format: AudioFormat;
  file: string;
}

export type CallAudio = PcmAudio | EncodedAudio;

/** Formats the engine decodes itself (as mono) when ffmpeg is missing. */
const ENGINE_DECODES: AudioFormat[] = ["wav", "mp3", "flac"];

/**
 * Opens a stored recording for transcription. 16 kHz 16-bit WAV is read as is;
 * everything else goes through ffmpeg into `workDir`. Failures are StageErrors
 * with a reason the call is failed with: `unsupported_audio` (not a format we
 * read), `corrupt_audio` (empty, truncated or undecodable).
 */
export async function openCallAudio(audioPath: string, opts: { workDir: string; ffmpegPath?: string; signal?: AbortSignal }): Promise<CallAudio> {
  let size: number;
  try {
    size = fs.statSync(audioPath).size;
  } catch {
    throw new StageError("audio_missing", `the stored audio file is missing: ${audioPath}`);
  }
  if (size === 0) throw new StageError("corrupt_audio", "the audio file is empty (0 bytes)");
  const head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
  const fd = fs.openSync(audioPath, "r");
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const format = sniffAudioFormat(head);
  if (!format) throw new StageError("unsupported_audio", "the file is not audio in a supported format (WAV, MP3, FLAC, OGG/Opus, M4A/MP4, WebM)");

  if (format === "wav") {
    const info = wavInfoOrFail(audioPath);
    if (isPcm16k(info)) return pcm(format, audioPath, info, "wav");
  }

  const ffmpeg = findFfmpeg(opts.ffmpegPath);
  if (!ffmpeg) {
    if (ENGINE_DECODES.includes(format)) return { kind: "encoded", format, file: audioPath };
    throw new StageError(
      "unsupported_audio",
      `${format.toUpperCase()} audio needs ffmpeg, and none was found (looked for --ffmpeg, ffmpeg on PATH, the npm package and beside the executable)`,
    );
  }
  fs.mkdirSync(opts.workDir, { recursive: true });
  const out = path.join(opts.workDir, "pcm16k.wav");
  try {
    await convertToPcm16k(ffmpeg.path, audioPath, out, opts.signal);
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    throw new StageError("corrupt_audio", e instanceof FfmpegError ? e.message : String(e));
  }
  return pcm(format, out, wavInfoOrFail(out), "ffmpeg");
}

function wavInfoOrFail(file: string): WavInfo {
  try {
    return readWavInfo(file);
  } catch (e) {
    if (e instanceof WavError) throw new StageError(e.kind === "not_wav" ? "unsupported_audio" : "corrupt_audio", e.message);
    throw e;
  }
}

function pcm(format: AudioFormat, file: string, info: WavInfo, via: PcmAudio["via"]): PcmAudio {
  if (info.frames === 0) throw new StageError("corrupt_audio", "the audio holds no samples");
  const stereo = info.channels === 2;
  return {
    kind: "pcm",
    format,
    file,
    info,
    channels: stereo ? 2 : 1,
    frames: info.frames,
    durationSeconds: info.frames / info.sampleRate,
    via,
    read: (channel, start, count) => readPcm16Window(file, info, info.channels === 1 ? 0 : stereo ? channel : "mix", start, count),
  };
}
