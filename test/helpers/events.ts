/** The events a call's first successful run writes, in order (spec: webhook event types; the pipeline stages). */
export const FIRST_RUN_EVENTS = [
  "call.received",
  "call.processing_started",
  "call.transcription_completed",
  "call.analysis_completed",
  "call.report_completed",
] as const;
