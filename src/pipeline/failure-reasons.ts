/**
 * Every failure_reason a call can end with. Clients may branch on them, so
 * they are fixed words; the human text goes to the job's last_error and logs.
 */
export const FAILURE_REASONS = {
  /** The call has neither a recording_url nor uploaded audio, and the live pipeline needs audio. */
  no_audio: "no audio to transcribe",
  /** recording_url could not be fetched (network, HTTP status, timeout, not audio, too large, too many redirects), after retries. */
  download_failed: "recording could not be downloaded",
  /** The stored audio file of an upload is gone from the data dir. */
  audio_missing: "stored audio file is missing",
  /** The file is not audio in a format we read (WAV, MP3, FLAC, OGG/Opus, M4A/MP4, WebM), or needs ffmpeg and there is none. */
  unsupported_audio: "audio format not supported",
  /** The audio is empty, truncated or cannot be decoded. */
  corrupt_audio: "audio is empty, truncated or corrupt",
  /** The audio could not be decoded or transcribed. */
  transcription_failed: "transcription failed",
  /** No transcription engine is available in this build or configuration. */
  transcriber_unavailable: "no transcriber available",
  /**
   * The analyzer failed or produced no valid report. A configured LLM that
   * cannot load (model file missing, engine missing) is this too, not retried,
   * with the cause in the message: the rules analyzer always runs, so there is
   * no "no analyzer" case.
   */
  analysis_failed: "analysis failed",
  /** An unexpected error, after retries (details in the job's last_error and the log). */
  internal_error: "unexpected error",
} as const;

export type FailureReason = keyof typeof FAILURE_REASONS;
