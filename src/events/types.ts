/** The nine lifecycle events of spec 6.1, in the order a successful call meets them, then erasure (docs/lifecycle.md) and review in the console (docs/console.md). */
export const EVENT_TYPES = [
  "call.received",
  "call.processing_started",
  "call.transcription_completed",
  "call.analysis_completed",
  "call.report_completed",
  "call.failed",
  "call.low_score_detected",
  "call.buying_signal_detected",
  "call.compliance_alert_detected",
  "call.deleted",
  "call.reviewed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(s: string): s is EventType {
  return (EVENT_TYPES as readonly string[]).includes(s);
}

/** The JSON body every receiver gets (docs/webhooks.md "What a receiver gets"). */
export interface EventBody {
  id: string;
  type: EventType;
  created_at: string;
  data: Record<string, unknown>;
}
