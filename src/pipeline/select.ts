import type { PipelineDeps } from "./deps.js";
import { analyzerFor } from "./analyzers/factory.js";
import { placeholderAnalyzer } from "./analyzers/placeholder.js";
import { StageError, type Analyzer, type Transcriber } from "./ports.js";
import { openWhisperTranscriber } from "./transcribers/whisper.js";

/**
 * What the worker runs for one job. `transcriber: null` means the placeholder
 * pipeline: the call still passes through transcribing -> analyzing (same
 * events in both modes), but no audio is transcribed.
 */
export interface PipelineParts {
  mode: "placeholder" | "live";
  transcriber: Transcriber | null;
  analyzer: Analyzer;
  /** Analyses an imported transcript (in both modes: the text is there, so a real analyzer reads it). */
  transcriptAnalyzer(): Analyzer;
}

/** The live transcriber: whisper.cpp with Silero VAD (transcribers/whisper.ts). */
export function createLiveTranscriber(services: Pick<PipelineDeps, "config" | "logger">): Transcriber {
  try {
    return openWhisperTranscriber(services.config, services.logger);
  } catch (e) {
    // Retrying cannot fix a missing model; serve checks at start, so this is a model removed while running.
    throw new StageError("transcriber_unavailable", (e as Error).message, false);
  }
}

/**
 * Builds the parts for services.pipeline. Live parts are built lazily, on the
 * first job that needs them, so a missing engine fails that job with a clear
 * failure_reason instead of stopping the server.
 */
export function selectPipeline(services: Pick<PipelineDeps, "config" | "logger" | "pipeline" | "analyzer">): PipelineParts {
  const liveAnalyzer = lazyAnalyzer(() => analyzerFor(services));
  if (services.pipeline === "placeholder") {
    return { mode: "placeholder", transcriber: null, analyzer: placeholderAnalyzer, transcriptAnalyzer: () => liveAnalyzer };
  }
  return {
    mode: "live",
    transcriber: lazyTranscriber(() => createLiveTranscriber(services)),
    analyzer: liveAnalyzer,
    transcriptAnalyzer: () => liveAnalyzer,
  };
}

function lazyTranscriber(make: () => Transcriber): Transcriber {
  let built: Transcriber | undefined;
  return {
    get name() {
      return built?.name ?? "live";
    },
    transcribe: (input) => (built ??= make()).transcribe(input),
  };
}

function lazyAnalyzer(make: () => Analyzer): Analyzer {
  let built: Analyzer | undefined;
  return {
    get name() {
      return built?.name ?? "live";
    },
    analyze: (input) => (built ??= make()).analyze(input),
  };
}
