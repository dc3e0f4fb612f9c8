import type { Report } from "../report/schema.js";
import type { FailureReason } from "./failure-reasons.js";
import type { CallRow } from "../store/schema.js";
import type { Company } from "../store/companies.js";

/**
 * The two seams of the pipeline. The stage runner only knows these
 * interfaces; whisper / none and placeholder / rules / llama / ollama plug in here.
 */
export type SpeakerRole = "rep" | "customer" | "unknown";

export interface TranscriptSegment {
  /** Seconds from the start of the call. */
  t_start: number;
  t_end: number;
  /** `rep` / `customer` when channels or an imported transcript say so, else `unknown`. */
  speaker: SpeakerRole | string;
  text: string;
}

/** Talk metrics from voice activity. Fields that need speakers are null on mono audio. */
export interface TalkMetrics {
  duration_seconds: number;
  speech_seconds: number;
  silence_share: number;
  rep_talk_seconds: number | null;
  customer_talk_seconds: number | null;
  /** rep / (rep + customer) talk time, 0..1. */
  talk_ratio: number | null;
  longest_monologue_rep_seconds: number | null;
  longest_monologue_customer_seconds: number | null;
  turns: number | null;
  overlap_seconds: number | null;
}

export interface Transcript {
  segments: TranscriptSegment[];
  metrics: TalkMetrics | null;
  language: string | null;
  /** Model file (or "imported") that produced the text. */
  model: string | null;
}

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
