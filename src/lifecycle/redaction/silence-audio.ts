import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { audioPath, audioTempDir, storeAudioFile, tempPrefix } from "../../audio/store.js";
import { convertToPcm16k, findFfmpeg } from "../../audio/ffmpeg.js";
import { readWavInfo, type WavInfo } from "../../audio/wav.js";
import type { Transcript } from "../../pipeline/ports.js";
import type { Services } from "../../services.js";
import { getCall } from "../../store/calls.js";
import { removeAudioIfUnused } from "../erase-call.js";

/** A typed redaction token in stored text: [CARD], [SSN], … */
const TOKEN = /\[(CARD|CVV|EXPIRY|SSN|ACCOUNT|ROUTING|IBAN|EMAIL|PHONE)\]/;

/** Whether the company asked for audio redaction (company update --redact-audio on). */
export function redactsAudio(settings: Record<string, unknown>): boolean {
  return settings.redact_audio === true;
}

/**
 * Silences, in the call's stored audio, every segment whose stored text holds
 * a redaction token. Segment times are all the transcript knows (no word
 * times), so the whole segment goes quiet: coarse, but nothing of the number
 * survives. A 16-bit PCM WAV keeps its format, rate and channels; other
 * formats are decoded by ffmpeg and stored as 16 kHz WAV (skipped when there
 * is no ffmpeg). The result is stored under its new content address, the call
 * points at it, and the old file goes unless another call shares it.
 * Returns the seconds silenced (0: nothing to do).
 */
export async function silenceRedactedAudio(
  services: Pick<Services, "store" | "config" | "clock" | "logger">,
  callId: number,
  transcript: Pick<Transcript, "segments">,
): Promise<number> {
  const spans = transcript.segments.filter((s) => TOKEN.test(s.text)).map((s) => [Math.max(0, s.t_start), Math.max(s.t_start, s.t_end)] as const);
  if (spans.length === 0) return 0;
  const call = await getCall(services.store.db, callId);
  if (!call?.audio_sha256) return 0;
  const original = audioPath(services.config.audioDir, call.audio_sha256);
  if (!fs.existsSync(original)) return 0;

  // Inside the audio dir, beside upload temp files: the unredacted copy never leaves it.
  const tmpRoot = audioTempDir(services.config.audioDir);
  await fsp.mkdir(tmpRoot, { recursive: true });
  const work = await fsp.mkdtemp(path.join(tmpRoot, `${tempPrefix()}silence-${callId}-`));
  try {
    const pcm = path.join(work, "audio.wav");
    let info: WavInfo | undefined;
    try {
      info = readWavInfo(original);
    } catch {
      info = undefined;
    }
    if (info && info.format === 1 && info.bitsPerSample === 16) {
      await fsp.copyFile(original, pcm);
    } else {
      const ffmpeg = findFfmpeg(services.config.ffmpegPath);
      if (!ffmpeg) {
        services.logger.warn("audio redaction skipped: the recording is not 16-bit WAV and no ffmpeg was found", { call_id: callId });
        return 0;
      }
      await convertToPcm16k(ffmpeg.path, original, pcm);
      info = readWavInfo(pcm);
    }
    const silenced = zeroSpans(pcm, info, spans);
    const stored = await storeAudioFile(services.config.audioDir, pcm, { maxBytes: Number.MAX_SAFE_INTEGER });
    if (stored.sha256 === call.audio_sha256) return 0;
    await services.store.db
      .updateTable("calls")
      .set({ audio_sha256: stored.sha256, audio_format: stored.format, audio_bytes: stored.bytes, updated_at: services.clock.now().toISOString() })
      .where("id", "=", callId)
      .where("audio_sha256", "=", call.audio_sha256)
      .execute();
    await removeAudioIfUnused(services, call.audio_sha256);
    return silenced;
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** Writes zeros over the samples of each [start, end) second span, in place. */
function zeroSpans(file: string, info: WavInfo, spans: ReadonlyArray<readonly [number, number]>): number {
  const frameBytes = info.channels * 2;
  const fd = fs.openSync(file, "r+");
  let seconds = 0;
  try {
    for (const [from, to] of spans) {
      const first = Math.min(info.frames, Math.floor(from * info.sampleRate));
      const last = Math.min(info.frames, Math.ceil(to * info.sampleRate));
      if (last <= first) continue;
      const zeros = Buffer.alloc(Math.min(1 << 20, (last - first) * frameBytes));
      for (let at = first * frameBytes; at < last * frameBytes; at += zeros.length) {
        fs.writeSync(fd, zeros, 0, Math.min(zeros.length, last * frameBytes - at), info.dataOffset + at);
      }
      seconds += (last - first) / info.sampleRate;
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return seconds;
}
