import type { CallRow } from "../store/schema.js";

/** The Call read resource of spec 2.3 (+ failure_reason), as the API and event payloads show it. */
export interface CallResource {
  call_id: number;
  external_call_id: string | null;
  customer_name: string | null;
  processing_status: string;
  report_status: string;
  overall_score: number | null;
  outcome: string | null;
  failure_reason: string | null;
  /** A short detail next to failure_reason (e.g. "HTTP 404", "timed out"); null when none. */
  failure_detail: string | null;
  created_at: string;
  report_url: string | null;
}

export function callPath(callId: number): string {
  return `/api/v1/calls/${callId}`;
}

export function reportPath(callId: number): string {
  return `/api/v1/calls/${callId}/report`;
}

export function toCallResource(row: CallRow): CallResource {
  return {
    call_id: row.id,
    external_call_id: row.external_call_id,
    customer_name: row.customer_name,
    processing_status: row.processing_status,
    report_status: row.report_status,
    overall_score: row.overall_score,
    outcome: row.outcome,
    failure_reason: row.failure_reason,
    failure_detail: row.failure_detail ?? null,
    created_at: row.created_at,
    // Spec 2.3: set only when the report is ready.
    report_url: row.report_status === "ready" ? reportPath(row.id) : null,
  };
}
