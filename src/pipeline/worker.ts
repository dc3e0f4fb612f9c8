import fs from "node:fs";
import os from "node:os";
import { randomBytes } from "node:crypto";
import { audioPath } from "../audio/store.js";
import { isAppError } from "../errors.js";
import { backoffMs } from "../queue/backoff.js";
import { claimJob } from "../queue/claim-job.js";
import { completeJob } from "../queue/complete-job.js";
import { extendLease } from "../queue/extend-lease.js";
import { failJob } from "../queue/fail-job.js";
import { reclaimExpiredJobs } from "../queue/reclaim-expired.js";
import { releaseJob } from "../queue/release-job.js";
import { retryJob } from "../queue/retry-job.js";
import { setJobProgress } from "../queue/set-progress.js";
import type { Report } from "../report/schema.js";
import { reviewRequired } from "../report/review-policy.js";
import { validateReport } from "../report/validate.js";
import { getCall, lastQueuedReason, setCallAudio } from "../store/calls.js";
import { getCompany, type Company } from "../store/companies.js";
import type { Tx } from "../store/db.js";
import { insertReport } from "../store/reports.js";
import type { CallRow, JobRow, TranscriptRow } from "../store/schema.js";
import { isTerminal } from "../store/states.js";
import { storeTranscript } from "../lifecycle/redaction/store-transcript.js";
import { redactsAudio, silenceRedactedAudio } from "../lifecycle/redaction/silence-audio.js";
import { latestTranscriptRow, toTranscript } from "../store/transcripts.js";
import { isoNow } from "../time.js";
import { withoutCredentials } from "../calls/recording-url.js";
import type { PipelineDeps } from "./deps.js";
import { downloadRecording } from "./download.js";
import { StageError, type Analyzer, type Transcript } from "./ports.js";
import { selectPipeline, type PipelineParts } from "./select.js";
import type { CpuHold, Slots } from "./slots.js";
import { claimablePipelines } from "../queue/job-pipeline.js";
import { applyTransition } from "./transitions.js";

/**
 * Runs one claimed job of a call through the stages: acquire audio ->
 * transcribing -> analyzing -> complete. Every state change is one
 * transaction that first re-checks the lease (the fence: a worker whose lease
 * was taken over writes nothing more), then moves the call and writes its
 * events. A job resumed after a crash redoes the work of the stage it was in;
 * transitions it already made are no-ops, so their events are never repeated.
 */
export interface WorkerContext {
  services: PipelineDeps;
  parts: PipelineParts;
  workerId: string;
  leaseMs: number;
  /** Aborted on shutdown: the job is handed back at its next checkpoint. */
  signal?: AbortSignal;
  /** In a pool: the worker's CPU slot, given up while the job waits on a download slot and the network. */
  cpu?: CpuHold;
  downloads?: Slots;
  /** Aborted as soon as the pool stops: a download is abandoned at once and its job handed back (fetching again later loses nothing). */
  stopDownloads?: AbortSignal;
}

export type JobResult = "completed" | "retry" | "failed" | "lost" | "released";

export interface JobOutcome {
  jobId: number;
  callId: number;
  result: JobResult;
  /** failure_reason for `failed`, the StageError reason for `retry`. */
  reason?: string;
}

class LeaseLost extends Error {}
class Released extends Error {}

export function newWorkerId(n = 0): string {
  return `${os.hostname()}:${process.pid}:${n}:${randomBytes(3).toString("hex")}`;
}

/** One set of parts per deps object (one per process), so engines (models) load once, not per runOnce. */
const partsByServices = new WeakMap<PipelineDeps, PipelineParts>();

export function partsFor(services: PipelineDeps): PipelineParts {
  let parts = partsByServices.get(services);
  if (!parts) partsByServices.set(services, (parts = selectPipeline(services)));
  return parts;
}

export function workerContext(services: PipelineDeps, opts: { parts?: PipelineParts; workerId?: string; signal?: AbortSignal } = {}): WorkerContext {
  const parts = opts.parts ?? partsFor(services);
  return {
    services,
    parts,
    workerId: opts.workerId ?? newWorkerId(),
    leaseMs: services.config.jobLeaseSeconds * 1000,
    signal: opts.signal,
  };
}

/** Claims one due job (after handing back expired leases) and processes it. Null when nothing is due. For tests and `submit --wait`. */
export async function runOnce(services: PipelineDeps, opts: { parts?: PipelineParts; workerId?: string } = {}): Promise<JobOutcome | null> {
  const ctx = workerContext(services, opts);
  const db = services.store.db;
  await reclaimExpiredJobs(db, services.clock.now());
  const job = await claimJob(db, claimInput(ctx, services.clock.now()));
  return job ? processJob(ctx, job) : null;
}

/** What a worker of this context may claim: jobs of its pipeline (or needing only an analyzer), within the company cap. */
export function claimInput(ctx: WorkerContext, now: Date) {
  return {
    workerId: ctx.workerId,
    leaseMs: ctx.leaseMs,
    now,
    pipelines: claimablePipelines(ctx.parts.mode),
    companyMaxInflight: ctx.services.config.companyMaxInflight,
  };
}

/** Never throws: every outcome is recorded on the job (and the call when final). */
export async function processJob(ctx: WorkerContext, job: JobRow): Promise<JobOutcome> {
  const { services } = ctx;
  const log = services.logger;
  let lost = false;
  const beat = setInterval(
    () => {
      extendLease(services.store.db, { jobId: job.id, workerId: ctx.workerId, leaseMs: ctx.leaseMs, now: services.clock.now() })
        .then((ok) => {
          if (!ok) lost = true;
        })
        .catch((e) => log.warn("heartbeat failed", { job_id: job.id, error: describe(e) }));
    },
    Math.max(50, Math.floor(ctx.leaseMs / 3)),
  );
  beat.unref?.();
  const base = { jobId: job.id, callId: job.call_id };
  try {
    await runStages(ctx, job, () => lost);
    return { ...base, result: "completed" };
  } catch (e) {
    if (e instanceof LeaseLost || lost) {
      log.warn("job lease lost; another worker owns it now", { job_id: job.id, call_id: job.call_id });
      return { ...base, result: "lost" };
    }
    if (e instanceof Released || ctx.signal?.aborted) {
      await releaseJob(services.store.db, { jobId: job.id, workerId: ctx.workerId, now: services.clock.now() }).catch(() => undefined);
      return { ...base, result: "released" };
    }
    return await settleFailure(ctx, job, toStageError(e)).catch((err) => {
      // Even recording the failure failed (database gone?): the lease will expire and the job runs again.
      log.error("could not record a job failure", { job_id: job.id, error: describe(err) });
      return { ...base, result: "lost" as const };
    });
  } finally {
    clearInterval(beat);
  }
}

/** One job's run: its fenced transaction, its progress writes and its checkpoint, shared by the stages. */
interface StageRun {
  ctx: WorkerContext;
  job: JobRow;
  company: Company;
  now: () => Date;
  /** Throws when the lease is lost or the pool is stopping: the job then writes nothing more. */
  checkpoint: () => void;
  /** A stage transaction: fenced by the lease, so a worker that lost its job cannot write. */
  tx: <T>(fn: (trx: Tx) => Promise<T>) => Promise<T>;
  progress: (stage: string, percent: number | null) => Promise<void>;
  move: (to: "transcribing" | "analyzing", reason?: string) => Promise<CallRow>;
}

/** What the analysis stage reads: the call as it stands, its transcript (null in the placeholder pipeline) and the analyzer. */
interface AnalysisInput {
  call: CallRow;
  transcript: Transcript | null;
  analyzer: Analyzer;
  /** The analyze stage was already written in the transaction that moved the call. */
  analyzeMarked: boolean;
}

async function runStages(ctx: WorkerContext, job: JobRow, isLost: () => boolean): Promise<void> {
  const db = ctx.services.store.db;
  const call = await getCall(db, job.call_id);
  const now = () => ctx.services.clock.now();
  const fence = (trx: Tx) => extendLease(trx, { jobId: job.id, workerId: ctx.workerId, leaseMs: ctx.leaseMs, now: now() });
  if (!call || isTerminal(call.processing_status)) {
    // Nothing left to do (the call finished under an earlier job): close this one quietly.
    await db.transaction().execute(async (trx) => {
      if (!(await fence(trx))) throw new LeaseLost();
      await completeJob(trx, { jobId: job.id, workerId: ctx.workerId, now: now() });
    });
    return;
  }
  if (job.attempts > job.max_attempts) throw new StageError("internal_error", `the job stopped its worker ${job.attempts - 1} times`, false);
  const company = await getCompany(db, call.company_id);
  if (!company) throw new StageError("internal_error", `company ${call.company_id} not found`, false);
  const tx = <T>(fn: (trx: Tx) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      if (!(await fence(trx))) throw new LeaseLost();
      return fn(trx);
    });
  const run: StageRun = {
    ctx,
    job,
    company,
    now,
    tx,
    checkpoint: () => {
      if (isLost()) throw new LeaseLost();
      if (ctx.signal?.aborted) throw new Released();
    },
    progress: (stage, percent) => setJobProgress(db, { jobId: job.id, workerId: ctx.workerId, stage, progress: percent }),
    move: async (to, reason) => (await tx((trx) => applyTransition(trx, job.call_id, { to, now: now(), reason }))).call,
  };
  const latest = await latestTranscriptRow(db, call.id);
  const input = latest?.source === "imported" ? await importedStage(run, latest) : await audioStages(run, call);
  await analysisStage(run, input);
}

/** The client brought the words: no audio, no transcription; a real analyzer reads them. */
async function importedStage(run: StageRun, latest: TranscriptRow): Promise<AnalysisInput> {
  const call = await run.move("analyzing", "imported transcript");
  return { call, transcript: toTranscript(latest), analyzer: run.ctx.parts.transcriptAnalyzer(), analyzeMarked: false };
}

/** queued -> transcribing -> analyzing: the audio is acquired and transcribed (live), or the call just passes through (placeholder). */
async function audioStages(run: StageRun, start: CallRow): Promise<AnalysisInput> {
  const { parts } = run.ctx;
  let call = start;
  const input = { transcript: null as Transcript | null, analyzer: parts.analyzer, analyzeMarked: false };
  if (call.processing_status === "queued" && !parts.transcriber && !call.recording_url) {
    // Placeholder without a download: nothing happens between the two moves, so one transaction
    // makes both (same history rows and events, half the commits).
    call = await run.tx(async (trx) => {
      await applyTransition(trx, call.id, { to: "transcribing", now: run.now() });
      await setJobProgress(trx, { jobId: run.job.id, workerId: run.ctx.workerId, stage: "analyze", progress: null });
      return (await applyTransition(trx, call.id, { to: "analyzing", now: run.now() })).call;
    });
    return { ...input, call, analyzeMarked: true };
  }
  if (call.processing_status === "queued") call = await run.move("transcribing");
  if (call.processing_status === "transcribing") return { ...input, ...(await transcriptionStage(run, call)) };
  if (call.processing_status === "analyzing" && parts.transcriber) {
    // Resumed after the transcript was stored (in the same transaction that moved the call here).
    const row = await latestTranscriptRow(run.ctx.services.store.db, call.id);
    if (!row) throw new StageError("transcription_failed", "no stored transcript to resume from", true);
    return { ...input, call, transcript: toTranscript(row) };
  }
  return { ...input, call };
}

/** Acquires the audio and, in the live pipeline, transcribes it; stores the transcript and moves the call to analyzing in one transaction. */
async function transcriptionStage(run: StageRun, start: CallRow): Promise<{ call: CallRow; transcript: Transcript | null }> {
  const { ctx } = run;
  run.checkpoint();
  const audio = await acquireAudio(ctx, run.job, start, run.progress);
  const call = audio ? (await getCall(ctx.services.store.db, start.id))! : start;
  run.checkpoint();
  const transcriber = ctx.parts.transcriber;
  if (!transcriber) return { call: await run.move("analyzing"), transcript: null };
  if (!audio) throw new StageError("no_audio", "the call has no recording_url and no uploaded audio", false);
  await run.progress("transcribe", 0);
  const onProgress = throttled((p) => void run.progress("transcribe", p).catch(() => undefined));
  const t = await transcriber.transcribe({ call, company: run.company, audioPath: audio.path, audioFormat: audio.format, onProgress, signal: ctx.signal });
  run.checkpoint();
  return run.tx(async (trx) => {
    // Analysis reads what was stored: the redacted words, never the raw ones.
    const stored = await storeTranscript(trx, { companyId: call.company_id, callId: call.id, source: "whisper", transcript: t, createdAt: isoNow(run.now()) });
    const moved = await applyTransition(trx, call.id, { to: "analyzing", now: run.now() });
    return { call: moved.call, transcript: stored.transcript };
  });
}

/** Analyses, then stores the report, completes the call and closes the job in one transaction. */
async function analysisStage(run: StageRun, { call, transcript, analyzer, analyzeMarked }: AnalysisInput): Promise<void> {
  const { ctx, job, company } = run;
  // The recording is not read again after transcription: redacted spans can be silenced now (company opt-in).
  if (transcript && redactsAudio(company.settings)) await silenceRedactedAudio(ctx.services, job.call_id, transcript);
  run.checkpoint();
  if (!analyzeMarked) await run.progress("analyze", null);
  const raw = await analyzer.analyze({ call, company, transcript, signal: ctx.signal });
  const report = finalizeReport(raw, call, company);
  run.checkpoint();
  await run.tx(async (trx) => {
    await insertReport(trx, { callId: job.call_id, analyzer: analyzer.name, reportJson: JSON.stringify(report), createdAt: isoNow(run.now()) });
    await applyTransition(trx, job.call_id, { to: "complete", now: run.now(), completion: { report, threshold: company.low_score_threshold } });
    await completeJob(trx, { jobId: job.id, workerId: ctx.workerId, now: run.now() });
  });
}

/** The analyzer's report, validated, with the review flag set by policy (report/review-policy.ts). */
export function finalizeReport(raw: Report, call: CallRow, company: Company): Report {
  let candidate: Report;
  try {
    candidate = validateReport(raw);
  } catch (e) {
    throw new StageError("analysis_failed", describe(e), true);
  }
  const review = reviewRequired(candidate, call, company.low_score_threshold, candidate.manager_review_required === true);
  return validateReport({ ...candidate, manager_review_required: review });
}

/**
 * Path of the call's audio, or null. A recording_url is fetched when the call
 * has no stored audio yet, and again on every reprocess (the recording may have
 * changed); otherwise the stored file is used — audio attached through the API
 * after a failed download, or the file an interrupted run already fetched.
 */
async function acquireAudio(
  ctx: WorkerContext,
  job: JobRow,
  call: CallRow,
  progress: (stage: string, p: number | null) => Promise<void>,
): Promise<{ path: string; format: string } | null> {
  const { config } = ctx.services;
  const fetchAgain = !call.audio_sha256 || (await lastQueuedReason(ctx.services.store.db, call.id)) === "reprocess";
  if (call.recording_url && fetchAgain) {
    await progress("download", null);
    const url = call.recording_url;
    const stored = await offCpu(ctx, (signal) =>
      downloadRecording(url, {
        audioRoot: config.audioDir,
        maxBytes: config.maxUploadMb * 1024 * 1024,
        connectTimeoutMs: config.downloadConnectTimeoutMs,
        idleTimeoutMs: config.downloadIdleTimeoutMs,
        totalTimeoutMs: config.downloadTimeoutMs,
        policy: ctx.services.downloadPolicy,
        signal,
      }),
    );
    // Credentials in the URL served this download and are not kept (a later reprocess fetches without them).
    await setCallAudio(ctx.services.store.db, job.call_id, {
      sha256: stored.sha256,
      format: stored.format,
      bytes: stored.bytes,
      recordingUrl: withoutCredentials(call.recording_url),
    });
    return { path: stored.path, format: stored.format };
  }
  if (call.audio_sha256) {
    const p = audioPath(config.audioDir, call.audio_sha256);
    if (!fs.existsSync(p)) throw new StageError("audio_missing", `stored audio ${call.audio_sha256} is missing from ${config.audioDir}`, false);
    return { path: p, format: call.audio_format ?? "unknown" };
  }
  return null;
}

/**
 * Runs network-bound work in a download slot instead of the worker's CPU slot:
 * slow or stalled recording URLs then wait among themselves, and the CPU slot
 * goes to another job meanwhile. The job takes a CPU slot again afterwards.
 */
async function offCpu<T>(ctx: WorkerContext, work: (signal?: AbortSignal) => Promise<T>): Promise<T> {
  const { cpu, downloads, stopDownloads } = ctx;
  if (!cpu || !downloads) return work(ctx.signal);
  const signal = stopDownloads && ctx.signal ? AbortSignal.any([ctx.signal, stopDownloads]) : (stopDownloads ?? ctx.signal);
  cpu.release();
  try {
    await downloads.acquire(signal);
    let result: T;
    try {
      result = await work(signal);
    } finally {
      downloads.release();
    }
    if (!stopDownloads?.aborted) {
      await cpu.reacquire(ctx.signal);
      return result;
    }
  } catch (e) {
    if (!stopDownloads?.aborted) throw e;
  }
  throw new Released();
}

async function settleFailure(ctx: WorkerContext, job: JobRow, err: StageError): Promise<JobOutcome> {
  const { services } = ctx;
  const db = services.store.db;
  const now = services.clock.now();
  const base = { jobId: job.id, callId: job.call_id };
  const message = `${err.reason}: ${err.message}`;
  if (err.retryable && job.attempts < job.max_attempts) {
    const runAt = new Date(now.getTime() + backoffMs(job.attempts, services.config.retryBaseMs));
    // The call keeps its state while it waits: the retry resumes it without repeating a transition.
    const ok = await retryJob(db, { jobId: job.id, workerId: ctx.workerId, error: message, runAt, now });
    services.logger.warn("job attempt failed; will retry", {
      job_id: job.id,
      call_id: job.call_id,
      attempt: job.attempts,
      reason: err.reason,
      error: err.message,
      run_at: isoNow(runAt),
    });
    return { ...base, result: ok ? "retry" : "lost", reason: err.reason };
  }
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await extendLease(trx, { jobId: job.id, workerId: ctx.workerId, leaseMs: ctx.leaseMs, now }))) throw new LeaseLost();
      await applyTransition(trx, job.call_id, { to: "failed", now, failureReason: err.reason, failureDetail: err.detail, reason: err.message.slice(0, 500) });
      await failJob(trx, { jobId: job.id, workerId: ctx.workerId, error: message, now });
    });
  } catch (e) {
    if (e instanceof LeaseLost) return { ...base, result: "lost" };
    throw e;
  }
  services.logger.warn("call failed", { job_id: job.id, call_id: job.call_id, attempts: job.attempts, failure_reason: err.reason, error: err.message });
  return { ...base, result: "failed", reason: err.reason };
}

/** Unknown exceptions are retried and, out of attempts, end as `internal_error`. */
function toStageError(e: unknown): StageError {
  if (e instanceof StageError) return e;
  if (isAppError(e) && e.code !== "internal_error") return new StageError("internal_error", `${e.code}: ${e.message}`, true);
  return new StageError("internal_error", describe(e), true);
}

/** At most one progress write per second, and only when the whole percent changed. */
function throttled(write: (p: number) => void): (p: number) => void {
  let lastAt = 0;
  let lastValue = -1;
  return (p) => {
    const v = Math.round(p);
    const t = Date.now();
    if (v === lastValue || (t - lastAt < 1000 && v < 100)) return;
    lastAt = t;
    lastValue = v;
    write(v);
  };
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
