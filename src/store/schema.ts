import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

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
  intake: string;
  /** Content-addressed audio file, relative to the data dir's audio/ folder. */
  audio_sha256: string | null;
  audio_format: string | null;
  audio_bytes: number | null;
  processing_status: string;
  report_status: string;
  overall_score: number | null;
  outcome: string | null;
  failure_reason: string | null;
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
  /** queued | running | completed | failed */
  status: string;
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
  from_status: string | null;
  to_status: string;
  /** Why: e.g. "accepted", "reprocess", "audio attached", a failure_reason. */
  reason: string | null;
  at: string;
}

export interface TranscriptsTable {
  id: Generated<number>;
  call_id: number;
  /** whisper (transcribed here) | imported (brought by the client: WebVTT, SRT, JSON). */
  source: string;
  language: string | null;
  model: string | null;
  /** JSON array of TranscriptSegment. */
  segments: string;
  /** JSON TalkMetrics, or null when not measured. */
  metrics: string | null;
  created_at: string;
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
}

export type CompanyRow = Selectable<CompaniesTable>;
export type NewCompany = Insertable<CompaniesTable>;
export type CompanyUpdate = Updateable<CompaniesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type CallRow = Selectable<CallsTable>;
export type NewCall = Insertable<CallsTable>;
export type JobRow = Selectable<JobsTable>;
export type EventRow = Selectable<EventsTable>;
export type ReportRow = Selectable<ReportsTable>;
export type CallHistoryRow = Selectable<CallHistoryTable>;
export type TranscriptRow = Selectable<TranscriptsTable>;
