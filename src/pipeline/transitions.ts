import { transitionCall, type ProcessingStatus } from "../calls/state.js";
import { recordEvent } from "../events/outbox.js";
import type { EventType } from "../events/types.js";
import type { Report } from "../report/schema.js";
import type { Tx } from "../store/db.js";
import type { CallRow } from "../store/schema.js";

/**
 * The one place that says which events a pipeline transition emits. The events
 * are written in the caller's transaction, together with the state change, and
 * only when the state really changed: a job resumed after a crash re-runs its
 * stages, but a transition it already made is a no-op and emits nothing again.
 */
export interface TransitionInput {
  to: ProcessingStatus;
  now: Date;
  reason?: string;
  /** Moving to `failed`. */
  failureReason?: string;
  /** Moving to `failed`: the short detail shown next to failure_reason. */
  failureDetail?: string | null;
  /** Moving to `complete`: the stored report and the company's low-score threshold. */
  completion?: { report: Report; threshold: number };
}

export interface PlannedEvent {
  type: EventType;
  extra: Record<string, unknown>;
}

/** Pure mapping from a transition to its events, in the order receivers get them. */
export function eventsFor(from: ProcessingStatus, input: TransitionInput): PlannedEvent[] {
  const { to } = input;
  if (to === "failed") return [{ type: "call.failed", extra: { failure_reason: input.failureReason, failure_detail: input.failureDetail ?? null } }];
  if (to === "transcribing" && from === "queued") return [{ type: "call.processing_started", extra: {} }];
  // An imported transcript skips transcription: work starts straight in analysis.
  if (to === "analyzing" && from === "queued") return [{ type: "call.processing_started", extra: {} }];
  if (to === "analyzing" && from === "transcribing") return [{ type: "call.transcription_completed", extra: {} }];
  if (to === "complete") {
    const { report, threshold } = input.completion!;
    const out: PlannedEvent[] = [
      { type: "call.analysis_completed", extra: {} },
      { type: "call.report_completed", extra: { report } },
    ];
    if (report.overall_score < threshold) out.push({ type: "call.low_score_detected", extra: { overall_score: report.overall_score, threshold } });
    if (report.buying_signals.length > 0) out.push({ type: "call.buying_signal_detected", extra: { buying_signals: report.buying_signals } });
    if (report.compliance_alerts.length > 0) out.push({ type: "call.compliance_alert_detected", extra: { compliance_alerts: report.compliance_alerts } });
    return out;
  }
  return [];
}

/** Moves the call and writes its events, in `trx`. */
export async function applyTransition(trx: Tx, callId: number, input: TransitionInput): Promise<{ call: CallRow; changed: boolean }> {
  const report = input.completion?.report;
  const { call, changed, from } = await transitionCall(trx, callId, input.to, {
    now: input.now,
    reason: input.reason,
    failureReason: input.failureReason,
    failureDetail: input.failureDetail,
    overallScore: report?.overall_score,
    outcome: report?.call_outcome,
  });
  if (!changed) return { call, changed };
  for (const e of eventsFor(from, input)) await recordEvent(trx, call, e.type, e.extra, input.now);
  return { call, changed };
}
