import fs from "node:fs";
import path from "node:path";
import { openCallAudio, SAMPLE_RATE, type PcmAudio } from "../../audio/decode.js";
import type { Config, EngineBuild } from "../../config.js";
import { AppError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { selectTranscriptionModels } from "../../models/find.js";
import { manifestEntry } from "../../models/manifest.js";
import { headerProblem } from "../../models/verify.js";
import {
  StageError,
  type SpeakerRole,
  type TalkMetrics as TalkMetricsResult,
  type Transcriber,
  type TranscribeInput,
  type Transcript,
  type TranscriptSegment,
} from "../ports.js";
import { assembleBatch, planBatches, toCallTime } from "../speech-batches.js";
import { unionSpans, type Span } from "../speech-spans.js";
import { computeTalkMetrics } from "../talk-metrics.js";
import { PRIVATE_DIR_MODE } from "../../store/private-files.js";
import { defaultThreads, ModelLoadError, VadEngine, whisperBinding, WhisperEngine } from "./whisper-native.js";

/** Audio per VAD call: 10 min of 16-bit mono is ~19 MiB. */
const VAD_WINDOW_SECONDS = 600;
/** Share of the progress bar given to voice activity detection. */
const VAD_PROGRESS = 10;

export interface WhisperTranscriberOptions {
  whisperModel: string;
  /** Null: no trimming of silence and no talk metrics (the models dir has no VAD model). */
  vadModel: string | null;
  threads: number;
  /** Native engine build (src/engines/whisper-addon.ts); the first transcriber of a process decides. */
  engineBuild?: EngineBuild;
  /** Temporary per-call files (ffmpeg output) live here and are removed after each call. */
  workRoot: string;
  ffmpegPath?: string;
  logger?: Logger;
}

/**
 * Local transcription with whisper.cpp: decode (ffmpeg where needed), split a
 * stereo call into rep and customer channels, find speech with Silero VAD,
 * transcribe only the speech, map times back to the call, and measure talk.
 */
export class WhisperTranscriber implements Transcriber {
  readonly name = "whisper";
  private readonly engine: WhisperEngine;
  private readonly vad: VadEngine | null;

  /** Loads both models now: a missing or broken file fails here, naming the file, not call by call later. */
  constructor(private readonly opts: WhisperTranscriberOptions) {
    for (const [what, file] of [
      ["whisper", opts.whisperModel],
      ["VAD", opts.vadModel],
    ] as const) {
      if (file === null) continue;
      if (!fs.existsSync(file)) throw new ModelLoadError(file, `${what} model ${file} does not exist`);
      const problem = headerProblem(file, what === "VAD" ? "vad" : "whisper");
      if (problem) throw new ModelLoadError(file, `${what} model ${file} is unusable: ${problem}`);
      // The engine loads some truncated files without complaint; a known size catches them.
      const expected = manifestEntry(path.basename(file))?.size_bytes;
      const size = fs.statSync(file).size;
      if (expected && size !== expected)
        throw new ModelLoadError(
          file,
          `${what} model ${file} is ${size} bytes, the manifest says ${expected}: truncated or corrupt (run \`callreview models verify\`)`,
        );
    }
    whisperBinding(opts.engineBuild ?? "auto");
    this.engine = WhisperEngine.load(opts.whisperModel);
    this.vad = opts.vadModel ? VadEngine.load(opts.vadModel) : null;
  }

  get model(): string {
    return path.basename(this.opts.whisperModel);
  }

  async transcribe(input: TranscribeInput): Promise<Transcript> {
    fs.mkdirSync(this.opts.workRoot, { recursive: true, mode: PRIVATE_DIR_MODE });
    const workDir = fs.mkdtempSync(path.join(this.opts.workRoot, `call-${input.call.id}-`));
    const progress = progressReporter(input.onProgress);
    try {
      progress(0);
      const audio = await openCallAudio(input.audioPath, { workDir, ffmpegPath: this.opts.ffmpegPath, signal: input.signal });
      if (audio.kind === "encoded") return await this.transcribeEncoded(audio.file, input, progress);
      return await this.transcribePcm(audio, input, progress);
    } catch (e) {
      if (e instanceof StageError || input.signal?.aborted) throw e;
      throw new StageError("transcription_failed", `the transcription engine failed: ${(e as Error).message}`);
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }

  /**
   * Voice activity and talk metrics only (no transcription): what the metrics
   * of a call are, in a fraction of the time. Needs the VAD model.
   */
  async measureTalk(
    input: Pick<TranscribeInput, "audioPath" | "company" | "call" | "signal">,
  ): Promise<{ metrics: TalkMetricsResult; speakers: SpeakerRole[] }> {
    if (!this.vad) throw new StageError("transcriber_unavailable", "talk metrics need a VAD model in the models dir");
    fs.mkdirSync(this.opts.workRoot, { recursive: true, mode: PRIVATE_DIR_MODE });
    const workDir = fs.mkdtempSync(path.join(this.opts.workRoot, `talk-${input.call.id}-`));
    try {
      const audio = await openCallAudio(input.audioPath, { workDir, ffmpegPath: this.opts.ffmpegPath, signal: input.signal });
      if (audio.kind === "encoded") {
        const speech = unionSpans(await this.vad.detectFile(audio.file));
        return {
          metrics: computeTalkMetrics(input.call.duration_seconds ?? Math.max(0, ...speech.map((s) => s.end)), { kind: "mono", speech }),
          speakers: ["unknown"],
        };
      }
      const { channels, speech } = await this.speechByChannel(audio, input);
      return { metrics: this.metricsOf(audio, speech)!, speakers: channels.map((c) => c.speaker) };
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }

  private async speechByChannel(audio: PcmAudio, input: Pick<TranscribeInput, "company" | "signal">, progress?: (p: number) => void) {
    const repChannel: 0 | 1 = input.company.settings.rep_channel === "right" ? 1 : 0;
    const channels: Array<{ channel: 0 | 1; speaker: SpeakerRole }> =
      audio.channels === 2
        ? [
            { channel: repChannel, speaker: "rep" },
            { channel: repChannel === 0 ? 1 : 0, speaker: "customer" },
          ]
        : [{ channel: 0, speaker: "unknown" }];
    const speech = this.vad
      ? await this.detectSpeech(
          audio,
          channels.map((c) => c.channel),
          input.signal,
          progress,
        )
      : channels.map(() => [{ start: 0, end: audio.durationSeconds }]);
    progress?.(VAD_PROGRESS);
    return { channels, speech };
  }

  /** Channel order is rep, customer for stereo (see speechByChannel). */
  private metricsOf(audio: PcmAudio, speech: Span[][]): TalkMetricsResult | null {
    if (!this.vad) return null;
    return computeTalkMetrics(
      audio.durationSeconds,
      audio.channels === 2 ? { kind: "stereo", rep: speech[0], customer: speech[1] } : { kind: "mono", speech: speech[0] },
    );
  }

  private async transcribePcm(audio: PcmAudio, input: TranscribeInput, progress: (p: number) => void): Promise<Transcript> {
    const { channels, speech } = await this.speechByChannel(audio, input, progress);
    const plans = channels.map((c, i) => ({ ...c, batches: planBatches(speech[i], audio.durationSeconds) }));
    const total = plans.reduce((s, p) => s + p.batches.reduce((t, b) => t + b.seconds, 0), 0);
    let done = 0;
    let language: string | null = null;
    const segments: TranscriptSegment[] = [];
    for (const plan of plans) {
      for (const batch of plan.batches) {
        input.signal?.throwIfAborted();
        const pcm = assembleBatch(batch, SAMPLE_RATE, (start, frames) => audio.read(plan.channel, start, frames));
        const result = await this.engine.transcribe(pcm, {
          language: this.language(input),
          threads: this.opts.threads,
          signal: input.signal,
          onProgress: (p) => progress(VAD_PROGRESS + ((done + (batch.seconds * p) / 100) / total) * (100 - VAD_PROGRESS)),
        });
        language ??= result.language;
        for (const s of result.segments) {
          const text = cleanText(s.text);
          if (!text) continue;
          segments.push({ t_start: round2(toCallTime(batch, s.start)), t_end: round2(toCallTime(batch, s.end)), speaker: plan.speaker, text });
        }
        done += batch.seconds;
      }
    }
    segments.sort((a, b) => a.t_start - b.t_start || a.t_end - b.t_end);
    progress(100);
    return {
      segments,
      metrics: this.metricsOf(audio, speech),
      language: language ?? this.language(input),
      model: this.model,
      durationSeconds: audio.durationSeconds,
    };
  }

  /**
   * Voice activity of the channels, read in windows so an hour-long call never sits in memory
   * whole; the channels of a window are detected in parallel (one VAD context and thread each).
   */
  private async detectSpeech(audio: PcmAudio, channels: Array<0 | 1>, signal?: AbortSignal, progress?: (p: number) => void): Promise<Span[][]> {
    const spans: Span[][] = channels.map(() => []);
    const window = VAD_WINDOW_SECONDS * SAMPLE_RATE;
    const lanes = Math.max(1, this.vad!.parallel);
    for (let start = 0; start < audio.frames; start += window) {
      const offset = start / SAMPLE_RATE;
      for (let first = 0; first < channels.length; first += lanes) {
        signal?.throwIfAborted();
        const group = channels.slice(first, first + lanes);
        const found = await this.vad!.detectEach(group.map((ch) => audio.read(ch, start, window)));
        found.forEach((list, j) => {
          for (const s of list) spans[first + j].push({ start: s.start + offset, end: Math.min(s.end + offset, audio.durationSeconds) });
        });
      }
      progress?.((Math.min(audio.frames, start + window) / audio.frames) * VAD_PROGRESS);
    }
    // A span cut by a window edge is one span.
    return spans.map((s) => unionSpans(s, 0.05));
  }

  /** No ffmpeg: the engine decodes WAV/MP3/FLAC itself, as mono, so there are no speakers and no silence trimming. */
  private async transcribeEncoded(file: string, input: TranscribeInput, progress: (p: number) => void): Promise<Transcript> {
    const speech = this.vad ? unionSpans(await this.vad.detectFile(file)) : null;
    progress(VAD_PROGRESS);
    const result = await this.engine.transcribeFile(file, {
      language: this.language(input),
      threads: this.opts.threads,
      onProgress: (p) => progress(VAD_PROGRESS + (p * (100 - VAD_PROGRESS)) / 100),
    });
    const segments = result.segments
      .map((s) => ({ t_start: round2(s.start), t_end: round2(s.end), speaker: "unknown", text: cleanText(s.text) }))
      .filter((s) => s.text);
    const duration = input.call.duration_seconds ?? Math.max(0, ...segments.map((s) => s.t_end), ...(speech ?? []).map((s) => s.end));
    progress(100);
    return {
      segments,
      metrics: speech ? computeTalkMetrics(duration, { kind: "mono", speech }) : null,
      language: result.language ?? this.language(input),
      model: this.model,
      durationSeconds: duration,
    };
  }

  /** English-only models (`*.en*`) are told so; multilingual ones detect the language unless the company sets one. */
  private language(input: TranscribeInput): string {
    if (/\.en([.-]|$)/.test(path.basename(this.opts.whisperModel, ".bin"))) return "en";
    const configured = input.company.settings.language;
    return typeof configured === "string" && configured ? configured : "auto";
  }
}

/** The transcriber `serve --pipeline live` uses; throws naming the file when a model is missing or unusable. */
export function openWhisperTranscriber(
  config: Pick<Config, "modelsDir" | "dataDir" | "whisperModel" | "whisperThreads" | "ffmpegPath"> & Partial<Pick<Config, "engineBuild">>,
  logger?: Logger,
): WhisperTranscriber {
  const models = selectTranscriptionModels(config);
  if (!models.whisper) {
    throw new AppError(
      "invalid_config",
      `no whisper model in ${config.modelsDir}: put a ggml whisper model there (e.g. ggml-base.en.bin, see models/README.md) or use --pipeline placeholder`,
    );
  }
  if (!models.vad) logger?.warn("no VAD model in the models dir: transcribing the whole audio, no talk metrics", { models_dir: config.modelsDir });
  try {
    return new WhisperTranscriber({
      whisperModel: models.whisper,
      vadModel: models.vad,
      threads: defaultThreads(config.whisperThreads),
      engineBuild: config.engineBuild,
      workRoot: path.join(config.dataDir, "tmp", "transcribe"),
      ffmpegPath: config.ffmpegPath,
      logger,
    });
  } catch (e) {
    if (e instanceof ModelLoadError) throw new AppError("invalid_config", e.message, { cause: e });
    throw e;
  }
}

/** Whisper marks non-speech with bracketed tags ([BLANK_AUDIO], (music)); those are not words anyone said. */
function cleanText(text: string): string {
  const t = text.trim();
  return /^[[(][^\])]*[\])]$/.test(t) ? "" : t;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Whole percents, never going backwards. */
function progressReporter(onProgress?: (p: number) => void): (p: number) => void {
  let last = -1;
  return (p) => {
    const v = Math.max(0, Math.min(100, Math.floor(p)));
    if (v <= last) return;
    last = v;
    try {
      onProgress?.(v);
    } catch {
      // A failing progress sink must not fail the transcription.
    }
  };
}
