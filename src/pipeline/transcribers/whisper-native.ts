import os from "node:os";
import path from "node:path";
import type { EngineBuild } from "../../config.js";
import { loadWhisperAddon } from "../../engines/whisper-addon.js";

/**
 * The whisper.cpp engine (@fugood/whisper.node's binding): our SIMD build or the prebuilt
 * generic addon, both embedded in the executable (see src/engines/whisper-addon.ts).
 */
interface NativeResult {
  language?: string;
  result: string;
  segments: Array<{ text: string; t0: number; t1: number }>;
  isAborted: boolean;
}
interface NativeWhisperContext {
  transcribeData(pcm: ArrayBuffer, options: Record<string, unknown>): { stop(): Promise<void>; promise: Promise<NativeResult> };
  transcribeFile(file: string, options: Record<string, unknown>): { stop(): Promise<void>; promise: Promise<NativeResult> };
  release(): Promise<void>;
}
interface NativeVadContext {
  detectSpeechData(pcm: ArrayBuffer, options: Record<string, unknown>): Promise<Array<{ t0: number; t1: number }>>;
  detectSpeechFile(file: string, options: Record<string, unknown>): Promise<Array<{ t0: number; t1: number }>>;
  release(): Promise<void>;
}
interface NativeModule {
  WhisperContext: (new (o: { filePath: string; useGpu: boolean }) => NativeWhisperContext) & { toggleNativeLog?(on: boolean, cb?: unknown): void };
  WhisperVadContext: new (o: { filePath: string; nThreads: number; useGpu: boolean }) => NativeVadContext;
}

let native: NativeModule | undefined;

/** The addon chosen by src/engines/whisper-addon.ts (SIMD build when the CPU has it, else the prebuilt generic one). */
export function whisperBinding(build: EngineBuild = "auto"): NativeModule {
  if (!native) {
    native = loadWhisperAddon(build).addon as NativeModule;
    try {
      // The engine otherwise writes every load and decode step to stderr.
      native.WhisperContext.toggleNativeLog?.(false);
    } catch {
      // Older addons have no log switch; their output is harmless.
    }
  }
  return native;
}

export class ModelLoadError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = "ModelLoadError";
  }
}

export function defaultThreads(configured: number): number {
  if (configured > 0) return configured;
  return Math.max(1, typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length);
}

/**
 * One engine call at a time: a whisper.cpp context is not re-entrant, and whisper and VAD share
 * one lane so their threads together never exceed the cores (see docs/transcription.md, threads).
 */
class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

export interface EngineSegment {
  /** Seconds from the start of the PCM passed in. */
  start: number;
  end: number;
  text: string;
}

/** A loaded whisper model; loaded once per process and shared by every transcription. */
const engineLane = new Serial();

/** One engine per model file for the process; a file the engine refuses is a ModelLoadError naming it. */
function loadOnce<T>(loaded: Map<string, T>, modelPath: string, what: string, kind: string, make: (key: string) => T): T {
  const key = path.resolve(modelPath);
  let engine = loaded.get(key);
  if (!engine) {
    try {
      engine = make(key);
    } catch (e) {
      throw new ModelLoadError(key, `${what} ${key} could not be loaded (${(e as Error).message}): the file is missing, truncated or not ${kind}`);
    }
    loaded.set(key, engine);
  }
  return engine;
}

export class WhisperEngine {
  private static loaded = new Map<string, WhisperEngine>();
  private readonly serial = engineLane;

  private constructor(
    readonly modelPath: string,
    private readonly ctx: NativeWhisperContext,
  ) {}

  static load(modelPath: string): WhisperEngine {
    return loadOnce(WhisperEngine.loaded, modelPath, "whisper model", "a whisper ggml model", (key) => {
      return new WhisperEngine(key, new (whisperBinding().WhisperContext)({ filePath: key, useGpu: false }));
    });
  }

  /** Transcribes 16 kHz mono 16-bit PCM. Engine times are in centiseconds. */
  transcribe(
    pcm: Int16Array,
    opts: { language?: string; threads: number; onProgress?: (p: number) => void; signal?: AbortSignal },
  ): Promise<{ language: string | null; segments: EngineSegment[] }> {
    return this.serial.run(async () => {
      opts.signal?.throwIfAborted();
      const data = pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength) as ArrayBuffer;
      const job = this.ctx.transcribeData(data, {
        language: opts.language ?? "en",
        maxThreads: opts.threads,
        temperature: 0,
        onProgress: (p: number) => opts.onProgress?.(Math.max(0, Math.min(100, p))),
      });
      const onAbort = () => void job.stop().catch(() => undefined);
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      try {
        const r = await job.promise;
        opts.signal?.throwIfAborted();
        return { language: r.language ?? null, segments: r.segments.map((s) => ({ start: s.t0 / 100, end: s.t1 / 100, text: s.text })) };
      } finally {
        opts.signal?.removeEventListener("abort", onAbort);
      }
    });
  }

  /** The engine decodes the file itself (WAV/MP3/FLAC, mixed to mono): used only when ffmpeg is missing. */
  transcribeFile(
    file: string,
    opts: { language?: string; threads: number; onProgress?: (p: number) => void },
  ): Promise<{ language: string | null; segments: EngineSegment[] }> {
    return this.serial.run(async () => {
      const r = await this.ctx.transcribeFile(file, {
        language: opts.language ?? "en",
        maxThreads: opts.threads,
        temperature: 0,
        onProgress: (p: number) => opts.onProgress?.(Math.max(0, Math.min(100, p))),
      }).promise;
      return { language: r.language ?? null, segments: r.segments.map((s) => ({ start: s.t0 / 100, end: s.t1 / 100, text: s.text })) };
    });
  }
}

export interface SpeechSpan {
  /** Seconds. */
  start: number;
  end: number;
}

/**
 * Silero voice activity detection (whisper.cpp's ggml port); loaded once per process with one
 * context per channel, each on one thread: the network is small and sequential (an LSTM), so a
 * second thread only adds synchronisation, while the two channels of a call run side by side.
 */
export class VadEngine {
  private static loaded = new Map<string, VadEngine>();
  /** Threads per VAD context. */
  static readonly THREADS = 1;
  private readonly serial = engineLane;

  private constructor(
    readonly modelPath: string,
    private readonly contexts: NativeVadContext[],
  ) {}

  /** `channels` contexts (at most 2 are ever used at once). */
  static load(modelPath: string, channels = 2): VadEngine {
    return loadOnce(VadEngine.loaded, modelPath, "VAD model", "a Silero ggml model", (key) => {
      const contexts: NativeVadContext[] = [];
      for (let i = 0; i < Math.max(1, channels); i++)
        contexts.push(new (whisperBinding().WhisperVadContext)({ filePath: key, nThreads: VadEngine.THREADS, useGpu: false }));
      return new VadEngine(key, contexts);
    });
  }

  /** How many channels detectEach runs at once. */
  get parallel(): number {
    return this.contexts.length;
  }

  /** Speech spans in 16 kHz mono 16-bit PCM, in seconds from its start. */
  async detect(pcm: Int16Array): Promise<SpeechSpan[]> {
    return (await this.detectEach([pcm]))[0];
  }

  /** Speech spans of several PCM buffers (the channels of one window), each on its own context, in parallel. */
  detectEach(pcms: Int16Array[]): Promise<SpeechSpan[][]> {
    if (pcms.length > this.contexts.length) throw new Error(`VAD: ${pcms.length} buffers for ${this.contexts.length} contexts`);
    return this.serial.run(() =>
      Promise.all(
        pcms.map(async (pcm, i) => {
          if (pcm.length === 0) return [];
          const data = pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength) as ArrayBuffer;
          const spans = await this.contexts[i].detectSpeechData(data, {});
          return spans.map((s) => ({ start: s.t0 / 100, end: s.t1 / 100 }));
        }),
      ),
    );
  }

  detectFile(file: string): Promise<SpeechSpan[]> {
    return this.serial.run(async () => (await this.contexts[0].detectSpeechFile(file, {})).map((s) => ({ start: s.t0 / 100, end: s.t1 / 100 })));
  }
}
