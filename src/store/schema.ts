import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type { AttemptTrigger, DeliveryStatus, Intake, JobStatus, ProcessingStatus, ReportStatus, TranscriptSource } from "./states.js";

/**
 * Table and row types of the store. Timestamps are ISO 8601 UTC strings with
 * `Z`; JSON columns are TEXT holding JSON; booleans are 0/1 integers, so the
 * same SQL runs on better-sqlite3, bun:sqlite and (later) PostgreSQL.
 */
export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  low_score_threshold: ColumnType<number, number | undefined, number>;
  /** JSON object: per-company settings (rep channel, trackers, ...). */
  settings: ColumnType<string, string | undefined, string>;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  public_id: string;
  company_id: number;
  name: string | null;
  /** Hex SHA-256 of the secret part; the secret itself is never stored. */
  secret_hash: string;
  /** Comma-separated scope names. */
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface CallsTable {
  id: Generated<number>;
  company_id: number;
  external_call_id: string | null;
  rep_name: string | null;
  rep_email: string | null;
  customer_name: string | null;
  customer_phone: string | null;
  customer_email: string | null;
  call_started_at: string | null;
  call_ended_at: string | null;
  duration_seconds: number | null;
  recording_url: string | null;
  source_system: string;
  crm_contact_id: string | null;
  crm_deal_id: string | null;
  /** JSON object (CallSubmission.metadata), "{}" when none. */
  metadata: string;
  /** JSON of the inbound webhook payload exactly as received, else null. */
  raw_payload: string | null;
  /** How the call came in: api | upload | inbound_webhook | cli. */
  intake: Intake;
  /** Content-addressed audio file, relative to the data dir's audio/ folder. */
  audio_sha256: string | null;
  audio_format: string | null;
  audio_bytes: number | null;
  processing_status: ProcessingStatus;
  report_status: ReportStatus;
  overall_score: number | null;
  outcome: string | null;
  failure_reason: string | null;
  /** A short detail safe to show the client (e.g. "HTTP 404", "timed out"); null when none. */
  failure_detail: string | null;
  /** Higher runs first: 10 for metadata.high_value_opportunity, else 0. */
  priority: number;
  created_at: string;
  updated_at: string;
}

export interface JobsTable {
  id: Generated<number>;
  call_id: number;
  /** What the job does, e.g. "process_call". */
  kind: string;
  status: JobStatus;
  priority: number;
  attempts: number;
  max_attempts: number;
  /** The job is not claimed before this time (backoff). */
  run_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** 0..100 while the running stage reports progress (migration 006). */
  progress: ColumnType<number | null, number | null | undefined, number | null>;
  /** download | transcribe | analyze, as the worker last wrote it (migration 006). */
  stage: ColumnType<string | null, string | null | undefined, string | null>;
  /** placeholder | live | any: which workers may claim the job (migration 008). */
  pipeline: ColumnType<string, string | undefined, string>;
}

/** The transactional outbox: one row per lifecycle event, written with the change that caused it. */
export interface EventsTable {
  id: Generated<number>;
  /** Public id, `evt_…`, stable across delivery retries and replays. */
  event_id: string;
  company_id: number;
  call_id: number | null;
  type: string;
  /** The full JSON body sent to receivers: {id, type, created_at, data}. */
  payload: string;
  created_at: string;
}

export interface ReportsTable {
  id: Generated<number>;
  call_id: number;
  /** 1 for the first report of a call, +1 per reprocess. */
  version: number;
  /** Which analyzer produced it: placeholder | rules | llama | ollama. */
  analyzer: string;
  /** The Report JSON, validated against the strict schema before it was stored. */
  report: string;
  created_at: string;
}

export interface CallHistoryTable {
  id: Generated<number>;
  call_id: number;
  /** Null for the first entry (the call was accepted). */
  from_status: ProcessingStatus | null;
  to_status: ProcessingStatus;
  /** Why: e.g. "accepted", "reprocess", "audio attached", a failure_reason. */
  reason: string | null;
  at: string;
}

export interface TranscriptsTable {
  id: Generated<number>;
  call_id: number;
  /** whisper (transcribed here) | imported (brought by the client: WebVTT, SRT, JSON). */
  source: TranscriptSource;
  language: string | null;
  model: string | null;
  /** JSON array of TranscriptSegment. */
  segments: string;
  /** JSON TalkMetrics, or null when not measured. */
  metrics: string | null;
  created_at: string;
}

/** A receiver URL registered for a company; the secret is stored because signing needs it. */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  company_id: number;
  url: string;
  /** Comma-separated event types; null = every type. */
  events: string | null;
  /** The signing secret exactly as shown (`whsec_…`). Never listed, never logged. */
  secret: string;
  /** After a rotation the old secret still signs until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  /** 1/0; a 410 answer disables the endpoint. */
  enabled: number;
  disabled_reason: string | null;
  /** Highest events.id when the endpoint was added: it gets only later events. */
  after_event_id: number;
  removed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One event on its way to one endpoint. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  company_id: number;
  endpoint_id: number;
  event_row_id: number;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  /** Every attempt ever made, replays included. */
  attempts: number;
  /** Failed attempts in the current retry sequence (a replay starts a new one). */
  retry_index: number;
  response_status: number | null;
  last_error: string | null;
  /** When the dispatcher may send it next; null once delivered or failed. */
  next_attempt_at: string | null;
  /** Set while a dispatcher holds the delivery, so no other sends the same attempt. */
  lease_token: string | null;
  lease_until: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  /** 1-based number of the attempt within the delivery. */
  attempt: number;
  trigger: AttemptTrigger;
  started_at: string;
  /** The `t` the request was signed with. */
  signature_timestamp: number;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  /** When the next attempt was scheduled after this one (null: none). */
  next_attempt_at: string | null;
  /** 1 while the attempt is being sent (written before sending); 0 once its result, or its loss, is recorded. */
  in_flight: Generated<number>;
}

/** How far the fan-out has read the events outbox. */
export interface WebhookFanoutCursorTable {
  name: string;
  last_event_row_id: number;
  updated_at: string;
}

/** One audited action (migration 010). Append-only; never holds a call's words. */
export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  /** api_key | cli | system | user */
  actor_type: string;
  /** The API key's public id, `cli`, `retention`, or a console user. */
  actor: string;
  /** e.g. transcript.read, call.delete, retention.run, api_key.create. */
  action: string;
  company_id: number | null;
  call_id: number | null;
  request_id: string | null;
  /** JSON object of ids and counts only. */
  detail: string | null;
}

/** Review console tables (migration 011); their row types live in src/store/users.ts and src/store/reviews.ts. */
export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  /** Lower-cased. */
  email: string;
  /** reviewer | manager | admin */
  role: string;
  /** scrypt$N$r$p$salt$hash (src/console/password.ts). */
  password_hash: string;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_until: string | null;
  disabled_at: string | null;
  last_login_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface CallConsoleTable {
  call_id: number;
  alert_count: ColumnType<number, number | undefined, number>;
  /** Rep share of talk time, 0..1, of the latest transcript; null when not measured. */
  talk_ratio: ColumnType<number | null, number | null | undefined, number | null>;
  /** unreviewed | reviewed */
  review_state: ColumnType<string, string | undefined, string>;
  reviewed_by: number | null;
  reviewed_at: string | null;
  review_note: string | null;
}

export interface AlertReviewsTable {
  id: Generated<number>;
  call_id: number;
  report_version: number;
  alert_index: number;
  alert_type: string;
  /** confirmed | dismissed */
  decision: string;
  note: string | null;
  user_id: number;
  at: string;
}

/** Events written but not yet turned into deliveries (migration 012). */
export interface WebhookFanoutQueueTable {
  event_row_id: number;
}
export interface Database {
  companies: CompaniesTable;
  api_keys: ApiKeysTable;
  calls: CallsTable;
  jobs: JobsTable;
  events: EventsTable;
  reports: ReportsTable;
  call_history: CallHistoryTable;
  transcripts: TranscriptsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_fanout_cursor: WebhookFanoutCursorTable;
  webhook_fanout_queue: WebhookFanoutQueueTable;
  audit_log: AuditLogTable;
  users: UsersTable;
  sessions: SessionsTable;
  call_console: CallConsoleTable;
  alert_reviews: AlertReviewsTable;
}

export type CompanyRow = Selectable<CompaniesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type CallRow = Selectable<CallsTable>;
export type NewCall = Insertable<CallsTable>;
export type JobRow = Selectable<JobsTable>;
export type EventRow = Selectable<EventsTable>;
export type ReportRow = Selectable<ReportsTable>;
export type TranscriptRow = Selectable<TranscriptsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
