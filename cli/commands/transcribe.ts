import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { whisperEngineStatus } from "../../src/engines/whisper-addon.js";
import { resolveModelPath, scanModels } from "../../src/models/find.js";
import { StageError, type Transcript } from "../../src/pipeline/ports.js";
import { WhisperTranscriber } from "../../src/pipeline/transcribers/whisper.js";
import { defaultThreads } from "../../src/pipeline/transcribers/whisper-native.js";
import type { Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";
import { CliExit, EXIT, UsageError } from "../exit-codes.js";
import { printJson, spinLine } from "../io.js";
import { formatTranscript } from "../transcript-format.js";
import { toSrt, toVtt } from "../transcript-subtitles.js";

const FORMATS = ["text", "json", "vtt", "srt"] as const;
type Format = (typeof FORMATS)[number];

interface TranscribeOpts {
  format: string;
  model?: string;
  vadModel?: string;
  threads?: string;
  language?: string;
}

/**
 * `transcribe <audio-file>`: one local transcription, no database and no server: the same
 * decode, VAD and whisper passes as the pipeline's transcriber, the result on stdout. For
 * checking a model on a box before any call goes through it.
 */
export function transcribeCommand(program: Command, ctx: CliContext): void {
  const cmd = program
    .command("transcribe <audio-file>")
    .description("Transcribe one audio file locally and print the transcript (no database, no server)")
    .option("--format <format>", `output: ${FORMATS.join(" | ")}`, "text")
    .option("--model <path|name>", "whisper model: a path, or a file name in the models dir [default: the first whisper model there]")
    .option("--vad-model <path>", "Silero VAD model [default: the one in the models dir; none: the whole audio is transcribed]")
    .option("--threads <n>", "CPU threads [default: --whisper-threads, 0 = all cores]")
    .option("--language <code>", "spoken language, e.g. en [default: en for *.en models, else detected]");
  addConfigOptions(cmd, ["whisperThreads", "engineBuild", "ffmpegPath"]);
  cmd.action(async (audioFile: string, opts: TranscribeOpts, command: Command) => {
    checkOptions(opts);
    const config = configFrom(command, ctx);
    if (!fs.existsSync(audioFile)) throw new CliExit(`audio file not found: ${audioFile}`, EXIT.notFound);
    if (!fs.statSync(audioFile).isFile()) throw new UsageError(`not a file: ${audioFile}`);
    const { whisperModel, vadModel } = findModels(config.modelsDir, opts);

    const workRoot = fs.mkdtempSync(path.join(os.tmpdir(), "callreview-transcribe-"));
    let transcriber: WhisperTranscriber;
    try {
      transcriber = new WhisperTranscriber({
        whisperModel,
        vadModel,
        threads: opts.threads ? Number(opts.threads) : defaultThreads(config.whisperThreads),
        engineBuild: config.engineBuild,
        workRoot,
        ffmpegPath: config.ffmpegPath,
      });
    } catch (e) {
      fs.rmSync(workRoot, { recursive: true, force: true });
      // A model that exists but does not load (wrong file, truncated).
      throw new CliExit((e as Error).message, EXIT.failure);
    }
    // The pipeline's transcriber reads the language from the company and the length from the call: one-shot stand-ins.
    const company = { id: 0, name: "transcribe", settings: opts.language ? { language: opts.language } : {} } as unknown as Company;
    const call = { id: 0, duration_seconds: null } as unknown as CallRow;
    let transcript: Transcript;
    try {
      transcript = await transcriber.transcribe({
        call,
        company,
        audioPath: audioFile,
        audioFormat: path.extname(audioFile).slice(1),
        onProgress: (p) => void spinLine(`transcribing ${path.basename(audioFile)}: ${p}%`),
      });
    } catch (e) {
      throw new CliExit(
        `${audioFile}: ${e instanceof StageError ? `${e.message} (${e.reason})` : (e as Error).message}`,
        e instanceof StageError && e.reason === "audio_missing" ? EXIT.notFound : EXIT.failure,
      );
    } finally {
      if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
      fs.rmSync(workRoot, { recursive: true, force: true });
    }
    print(ctx, opts.format as Format, audioFile, transcript, vadModel);
  });
}

function checkOptions(opts: TranscribeOpts): void {
  if (!(FORMATS as readonly string[]).includes(opts.format)) throw new UsageError(`invalid --format "${opts.format}" (expected ${FORMATS.join(", ")})`);
  if (opts.threads !== undefined && (!/^\d+$/.test(opts.threads) || Number(opts.threads) < 1 || Number(opts.threads) > 256)) {
    throw new UsageError(`invalid --threads "${opts.threads}" (expected an integer from 1 to 256)`);
  }
  if (opts.language !== undefined && !/^[a-z]{2,3}$|^auto$/.test(opts.language))
    throw new UsageError(`invalid --language "${opts.language}" (expected a language code such as en, or auto)`);
}

/** The whisper model (given, or the first installed) and the VAD model (given, the installed one, or none). */
function findModels(modelsDir: string, opts: TranscribeOpts): { whisperModel: string; vadModel: string | null } {
  const installed = scanModels(modelsDir);
  const whisperModel = opts.model ? resolveModelPath(modelsDir, opts.model) : (installed.whisper[0] ?? null);
  if (!whisperModel)
    throw new CliExit(`no whisper model in ${modelsDir}: give --model <path> or put a ggml whisper model there (see models/README.md)`, EXIT.notFound);
  if (!fs.existsSync(whisperModel)) throw new CliExit(`whisper model not found: ${whisperModel}`, EXIT.notFound);
  const vadModel = opts.vadModel ? path.resolve(opts.vadModel) : (installed.vad[0] ?? null);
  if (vadModel && !fs.existsSync(vadModel)) throw new CliExit(`VAD model not found: ${vadModel}`, EXIT.notFound);
  return { whisperModel, vadModel };
}

function print(ctx: CliContext, format: Format, file: string, t: Transcript, vadModel: string | null): void {
  if (format !== "json") {
    ctx.io.out(format === "vtt" ? toVtt(t.segments) : format === "srt" ? (t.segments.length ? toSrt(t.segments) : "") : formatTranscript(t));
    return;
  }
  const engine = whisperEngineStatus();
  printJson(ctx.io, {
    file,
    model: t.model,
    vad_model: vadModel ? path.basename(vadModel) : null,
    engine: engine ? { build: engine.build, reason: engine.reason } : null,
    language: t.language,
    duration_seconds: t.durationSeconds ?? null,
    segments: t.segments,
    metrics: t.metrics,
  });
}
