import type { Report } from "../report/schema.js";
import type { FailureReason } from "./failure-reasons.js";
import type { CallRow } from "../store/schema.js";
import type { Company } from "../store/companies.js";
import type { Transcript } from "../transcripts/types.js";

/** The transcript types live in a leaf module (the store uses them too); re-exported for the pipeline's modules. */
export type { SpeakerRole, TalkMetrics, Transcript, TranscriptSegment } from "../transcripts/types.js";

/**
 * The two seams of the pipeline. The stage runner only knows these
 * interfaces; whisper / none and placeholder / rules / llama / ollama plug in here.
 */

export interface TranscribeInput {
  call: CallRow;
  company: Company;
  audioPath: string;
  audioFormat: string;
  /** 0..100 while the engine works. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

export interface Transcriber {
  readonly name: string;
  transcribe(input: TranscribeInput): Promise<Transcript>;
}

export interface AnalyzeInput {
  call: CallRow;
  company: Company;
  /** Null in the placeholder pipeline: the report is built from the call's own data. */
  transcript: Transcript | null;
  signal?: AbortSignal;
}

export interface Analyzer {
  readonly name: string;
  analyze(input: AnalyzeInput): Promise<Report>;
}

/** A failure the pipeline turns into `failed` with this reason (after retries when `retryable`). */
export class StageError extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
    readonly retryable: boolean = false,
    /** A short, client-safe detail (no URLs, hosts or paths), shown as the call's failure_detail. */
    readonly detail: string | null = null,
  ) {
    super(message);
    this.name = "StageError";
  }
}
