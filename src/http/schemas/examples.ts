/**
 * Examples shown in /docs and the OpenAPI document: one realistic call followed
 * through the API (call 42 of the Acme company). test/http/openapi-examples.test.ts
 * checks that every request body and response has one and that each is valid
 * against its schema.
 */

const CREATED_AT = "2025-06-30T14:05:09.412Z";

export const CALL_SUBMISSION_EXAMPLE = {
  external_call_id: "dialer-88412",
  rep_name: "Dana Whitfield",
  rep_email: "dana.whitfield@acme.example",
  customer_name: "Initech",
  customer_phone: "+1 415 555 0134",
  call_started_at: "2025-06-30T13:40:00Z",
  duration_seconds: 1460,
  recording_url: "https://recordings.acme.example/2025/06/30/dialer-88412.mp3",
  source_system: "dialer",
  crm_deal_id: "D-20931",
  metadata: { campaign: "q3-renewals", high_value_opportunity: true },
};

export const CALL_ACCEPTED_EXAMPLE = { call_id: 42, status: "received", processing_status_url: "/api/v1/calls/42", report_url: null };
export const CALL_DUPLICATE_EXAMPLE = { call_id: 42, status: "duplicate", processing_status_url: "/api/v1/calls/42", report_url: "/api/v1/calls/42/report" };
export const UPLOAD_ACCEPTED_EXAMPLE = { call_id: 43, status: "received", processing_status_url: "/api/v1/calls/43" };

export const CALL_EXAMPLE = {
  call_id: 42,
  external_call_id: "dialer-88412",
  customer_name: "Initech",
  processing_status: "complete",
  report_status: "ready",
  overall_score: 71,
  outcome: "follow_up_scheduled",
  failure_reason: null,
  failure_detail: null,
  created_at: CREATED_AT,
  report_url: "/api/v1/calls/42/report",
};

export const QUEUED_CALL_EXAMPLE = {
  ...CALL_EXAMPLE,
  processing_status: "queued",
  report_status: "pending",
  overall_score: null,
  outcome: null,
  report_url: null,
};

export const CALL_LIST_EXAMPLE = {
  data: [
    CALL_EXAMPLE,
    {
      ...CALL_EXAMPLE,
      call_id: 41,
      external_call_id: "dialer-88377",
      customer_name: "Globex",
      processing_status: "failed",
      report_status: "pending",
      overall_score: null,
      outcome: null,
      failure_reason: "download_failed",
      failure_detail: "HTTP 404",
      report_url: null,
    },
  ],
  count: 2,
  has_more: true,
  starting_after: 41,
};

export const REPORT_EXAMPLE = {
  overall_score: 71,
  score_breakdown: {
    rapport: 8,
    discovery: 7,
    needs_analysis: 7,
    value_articulation: 6,
    objection_handling: 7,
    active_listening: 8,
    talk_ratio: 6,
    next_steps: 8,
    qualification: 7,
    pricing_confidence: 5,
    closing: 7,
    compliance: 10,
  },
  summary:
    "Renewal call with Initech. The customer pushed back on the price increase; Dana tied it to the new reporting module and agreed a demo for the finance team.",
  call_outcome: "follow_up_scheduled",
  close_likelihood: 64,
  manager_review_required: false,
  customer_needs: ["Monthly reporting for the finance team"],
  pain_points: ["Manual exports take two days each month"],
  objections: [
    {
      objection: "The renewal price is higher than budgeted",
      raised_by: "customer",
      handled: true,
      suggested_response: "Quantify the two days of manual exports the reporting module removes each month.",
    },
  ],
  buying_signals: [{ signal: "Asked who else should join the demo", strength: "moderate" }],
  missed_opportunities: ["Did not ask who signs off on the budget"],
  coaching_notes: { priority: "medium", detail: "Good recovery on price; qualify the decision process before proposing next steps." },
  rep_strengths: ["Recorded-call disclosure in the first 10 seconds", "Clear summary at the end"],
  rep_weaknesses: ["Talked over the customer twice during pricing"],
  recommended_training: ["Decision-process qualification"],
  suggested_follow_up: "Send the reporting module one-pager and book the finance demo for next week.",
  crm_note: "Renewal at risk on price; demo of reporting module for finance agreed. Next: book demo, confirm budget owner.",
  compliance_alerts: [],
  transcript_highlights: [{ speaker: "customer", quote: "Honestly, the new price is more than we budgeted.", label: "objection", t: 412.5 }],
  timeline: [
    { t: 0, phase: "opening" },
    { t: 95, phase: "discovery" },
    { t: 410, phase: "pricing" },
    { t: 1320, phase: "closing" },
  ],
  confidence_level: "high",
};

export const CALL_REPORT_EXAMPLE = { call_id: 42, report: REPORT_EXAMPLE };

export const CALL_TRANSCRIPT_EXAMPLE = {
  call_id: 42,
  segments: [
    { t_start: 0.5, t_end: 4.1, speaker: "rep", text: "Hi, this is Dana from Acme. Just so you know, this call is recorded." },
    { t_start: 4.6, t_end: 7.2, speaker: "customer", text: "Sure, that's fine." },
  ],
  metrics: {
    duration_seconds: 1460,
    speech_seconds: 1288.4,
    silence_share: 0.12,
    rep_talk_seconds: 702.3,
    customer_talk_seconds: 586.1,
    talk_ratio: 0.55,
    longest_monologue_rep_seconds: 74.2,
    longest_monologue_customer_seconds: 51.8,
    turns: 214,
    overlap_seconds: 9.6,
  },
  language: "en",
  model: "ggml-small.en.bin",
};

export const TRANSCRIPT_IMPORTED_EXAMPLE = {
  call: QUEUED_CALL_EXAMPLE,
  transcript: { id: 7, source: "imported", segments: 2, speakers: ["Anna", "Ben"] },
};

export const REPROCESSING_EXAMPLE = { call_id: 42, status: "reprocessing" };

export const WEBHOOK_DELIVERY_LIST_EXAMPLE = {
  data: [
    { id: 118, event_type: "call.report_completed", status: "delivered", response_status: 200, attempts: 1, created_at: "2025-06-30T14:31:02.870Z" },
    { id: 117, event_type: "call.low_score_detected", status: "retrying", response_status: 503, attempts: 2, created_at: "2025-06-30T14:31:02.870Z" },
  ],
};

export const INBOUND_PAYLOAD_EXAMPLE = {
  call_id: "88412",
  agent_name: "Dana Whitfield",
  agent_email: "dana.whitfield@acme.example",
  contact_name: "Initech",
  phone: "+1 415 555 0134",
  recording: "https://recordings.acme.example/2025/06/30/dialer-88412.mp3",
  duration: "1460",
  source_system: "dialer",
};
export const INBOUND_ACCEPTED_EXAMPLE = { call_id: 42, status: "received" };
export const INBOUND_DUPLICATE_EXAMPLE = { call_id: 42, status: "duplicate" };

export const UPLOAD_FORM_EXAMPLE = { file: "(the audio file's bytes)", rep_name: "Dana Whitfield", customer_name: "Initech", duration_seconds: 1460 };
export const AUDIO_FORM_EXAMPLE = { file: "(the audio file's bytes)" };

/** An error body: `{error, message}` with the code clients branch on. */
export function errorExample(error: string, message: string): { error: string; message: string } {
  return { error, message };
}

export function validationExample(errors: Record<string, string[]>) {
  return { error: "validation_failed", message: "request validation failed", errors };
}
