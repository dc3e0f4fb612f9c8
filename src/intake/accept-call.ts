import { isHighValue } from "../calls/high-value.js";
import { scrubRawPayload } from "../calls/recording-url.js";
import { findCallByExternalId, insertAcceptedHistory, insertCallUnlessDuplicate } from "../store/calls.js";
import type { Db, Tx } from "../store/db.js";
import { createGroupCommit, type GroupCommit } from "../store/group-commit.js";
import type { CallRow } from "../store/schema.js";
import { recordEvent } from "../events/outbox.js";
import { insertFirstJob } from "../queue/add-job.js";
import { signalJobsAdded } from "../queue/jobs-added.js";
import { queuePipelineOf, type JobPipeline } from "../queue/job-pipeline.js";
import type { Transcript } from "../pipeline/ports.js";
import { storeTranscript } from "../lifecycle/redaction/store-transcript.js";
import { isoNow } from "../time.js";

/** The call attributes a submission can carry (spec 2.1), already validated. */
export interface CallFields {
  external_call_id?: string | null;
  rep_name?: string | null;
  rep_email?: string | null;
  customer_name?: string | null;
  customer_phone?: string | null;
  customer_email?: string | null;
  call_started_at?: string | null;
  call_ended_at?: string | null;
  duration_seconds?: number | null;
  recording_url?: string | null;
  source_system?: string | null;
  crm_contact_id?: string | null;
  crm_deal_id?: string | null;
  metadata?: Record<string, unknown> | null;
}

import type { Intake } from "../store/states.js";

export type IntakeKind = Intake;

export interface AcceptInput {
  companyId: number;
  fields: CallFields;
  intake: IntakeKind;
  /** The inbound webhook's payload exactly as received. */
  rawPayload?: string | null;
  audio?: { sha256: string; format: string; bytes: number } | null;
  /** A transcript brought with the call: stored before its job exists, so no worker can start the call without it. */
  transcript?: Transcript | null;
}

export interface AcceptResult {
  call: CallRow;
  duplicate: boolean;
}

export const HIGH_VALUE_PRIORITY = 10;

export function priorityOf(metadata: Record<string, unknown> | null | undefined): number {
  return isHighValue(metadata) ? HIGH_VALUE_PRIORITY : 0;
}

interface Submission {
  input: AcceptInput;
  now: Date;
}

const groupCommits = new WeakMap<Db, GroupCommit<Submission, AcceptResult>>();

function groupCommitOf(db: Db): GroupCommit<Submission, AcceptResult> {
  let gc = groupCommits.get(db);
  if (!gc) {
    gc = createGroupCommit(db, (trx, s: Submission) => acceptInTx(trx, s.input, s.now, queuePipelineOf(db)));
    groupCommits.set(db, gc);
  }
  return gc;
}

/**
 * Every route that accepts a call ends here: in one transaction the call row,
 * its processing job and its call.received event are written together, so an
 * accepted call is never without its job. A repeated external_call_id returns
 * the existing call and writes nothing.
 *
 * Concurrent submissions share a commit (store/group-commit.ts); the promise
 * resolves only once the commit holding this call, its job and its event is done.
 */
export async function acceptCall(db: Db, input: AcceptInput, now: Date = new Date()): Promise<AcceptResult> {
  const result = await groupCommitOf(db).submit({ input, now });
  if (!result.duplicate) signalJobsAdded(db);
  return result;
}

/** Batches written by acceptCall on this database (for tests and diagnostics). */
export function acceptBatches(db: Db): number {
  return groupCommits.get(db)?.batches ?? 0;
}

/** The writes of one acceptance, inside the caller's transaction. */
/** `pipeline`: the one the accepting process runs; a call arriving with its transcript needs only an analyzer. */
export async function acceptInTx(trx: Tx, input: AcceptInput, now: Date, pipeline: JobPipeline = "any"): Promise<AcceptResult> {
  const f = input.fields;
  const ts = isoNow(now);
  const metadata = f.metadata ?? {};
  const priority = priorityOf(metadata);
  const inserted = await insertCallUnlessDuplicate(trx, {
    company_id: input.companyId,
    external_call_id: f.external_call_id ?? null,
    rep_name: f.rep_name ?? null,
    rep_email: f.rep_email ?? null,
    customer_name: f.customer_name ?? null,
    customer_phone: f.customer_phone ?? null,
    customer_email: f.customer_email ?? null,
    call_started_at: f.call_started_at ?? null,
    call_ended_at: f.call_ended_at ?? null,
    duration_seconds: f.duration_seconds ?? null,
    recording_url: f.recording_url ?? null,
    source_system: f.source_system ?? "generic",
    crm_contact_id: f.crm_contact_id ?? null,
    crm_deal_id: f.crm_deal_id ?? null,
    metadata: JSON.stringify(metadata),
    raw_payload: scrubRawPayload(input.rawPayload, f.recording_url),
    intake: input.intake,
    audio_sha256: input.audio?.sha256 ?? null,
    audio_format: input.audio?.format ?? null,
    audio_bytes: input.audio?.bytes ?? null,
    processing_status: "queued",
    report_status: "pending",
    overall_score: null,
    outcome: null,
    failure_reason: null,
    priority,
    created_at: ts,
    updated_at: ts,
  });
  if (!inserted) {
    const existing = await findCallByExternalId(trx, input.companyId, f.external_call_id!);
    return { call: existing!, duplicate: true };
  }
  await insertAcceptedHistory(trx, inserted.id, ts);
  if (input.transcript)
    await storeTranscript(trx, { companyId: input.companyId, callId: inserted.id, source: "imported", transcript: input.transcript, createdAt: ts });
  await insertFirstJob(trx, { callId: inserted.id, priority, pipeline: input.transcript ? "any" : pipeline }, now);
  await recordEvent(trx, inserted, "call.received", {}, now);
  return { call: inserted, duplicate: false };
}
