/**
 * A transcript as the pipeline, the store and the import formats share it.
 * No imports: the store reads and writes these without depending on the pipeline.
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
  /** Length of the audio transcribed, when the transcriber decoded it (not stored: the call row has its own). */
  durationSeconds?: number;
}
