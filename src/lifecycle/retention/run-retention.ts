import { AppError } from "../../errors.js";
import { listCompanies } from "../../store/companies.js";
import {
  callsCreatedBefore,
  callsWithAudioBefore,
  callsWithTranscriptBefore,
  clearCallAudio,
  countDue,
  deleteTranscriptsOf,
  type DueCounts,
} from "../../store/retention.js";
import { isoNow } from "../../time.js";
import { audit, type Actor } from "../audit.js";
import { eraseCall, removeAudioIfUnused, scrub, type EraseDeps } from "../erase-call.js";
import { cutoff, retentionOf, type RetentionPolicy } from "./policy.js";

export interface CompanyRetention {
  company_id: number;
  policy: RetentionPolicy;
  calls_erased: number;
  transcripts_expired: number;
  audio_expired: number;
  /** Calls a worker held when their turn came: tried again on the next run. */
  skipped_processing: number;
}

export interface RetentionRun {
  at: string;
  companies: CompanyRetention[];
  /** False when the batch limit stopped the run with work left (the sweeper's next tick goes on). */
  finished: boolean;
}

/**
 * Applies every company's retention policy: whole calls first (erased as by
 * `calls delete`, with call.deleted), then transcripts, then audio. Each item
 * is its own small transaction, so intake and workers never wait long;
 * `maxItems` bounds one run (the sweeper's batch), Infinity runs to the end.
 */
export async function runRetention(deps: EraseDeps, input: { actor: Actor; maxItems?: number; auditEmpty?: boolean }): Promise<RetentionRun> {
  const db = deps.store.db;
  const now = deps.clock.now();
  const pass: RetentionPass = { deps, actor: input.actor, now, budget: input.maxItems ?? Number.POSITIVE_INFINITY };
  const out: CompanyRetention[] = [];
  for (const company of await listCompanies(db)) {
    const policy = retentionOf(company.settings);
    if (policy.audio_days === null && policy.transcripts_days === null && policy.calls_days === null) continue;
    const r: CompanyRetention = { company_id: company.id, policy, calls_erased: 0, transcripts_expired: 0, audio_expired: 0, skipped_processing: 0 };
    out.push(r);
    if (policy.calls_days !== null) await eraseOldCalls(pass, r, cutoff(now, policy.calls_days));
    if (policy.transcripts_days !== null) await expireTranscripts(pass, r, cutoff(now, policy.transcripts_days));
    if (policy.audio_days !== null) await expireAudio(pass, r, cutoff(now, policy.audio_days));
  }
  const changed = out.some((c) => c.calls_erased + c.transcripts_expired + c.audio_expired > 0);
  if (changed) await scrub(deps);
  if (changed || input.auditEmpty) {
    const total = (k: "calls_erased" | "transcripts_expired" | "audio_expired") => out.reduce((n, c) => n + c[k], 0);
    await audit(
      db,
      input.actor,
      "retention.run",
      { detail: { calls_erased: total("calls_erased"), transcripts_expired: total("transcripts_expired"), audio_expired: total("audio_expired") } },
      now,
    );
  }
  return { at: isoNow(now), companies: out, finished: pass.budget > 0 };
}

/** One run of the policies: `budget` items left across all companies and kinds. */
interface RetentionPass {
  deps: EraseDeps;
  actor: Actor;
  now: Date;
  budget: number;
}

const batchOf = (pass: RetentionPass) => Math.max(1, Math.min(50, pass.budget));

async function eraseOldCalls(pass: RetentionPass, r: CompanyRetention, before: string): Promise<void> {
  let afterId = 0;
  while (pass.budget > 0) {
    const ids = await callsCreatedBefore(pass.deps.store.db, r.company_id, before, batchOf(pass), afterId);
    if (ids.length === 0) break;
    afterId = ids[ids.length - 1];
    for (const id of ids) {
      pass.budget--;
      try {
        await eraseCall(pass.deps, { callId: id, companyId: r.company_id, actor: pass.actor, reason: "retention", scrub: false });
        r.calls_erased++;
      } catch (e) {
        if (e instanceof AppError && e.code === "conflict") r.skipped_processing++;
        else if (!(e instanceof AppError && e.code === "not_found")) throw e;
      }
    }
  }
}

async function expireTranscripts(pass: RetentionPass, r: CompanyRetention, before: string): Promise<void> {
  const db = pass.deps.store.db;
  while (pass.budget > 0) {
    const ids = await callsWithTranscriptBefore(db, r.company_id, before, batchOf(pass));
    if (ids.length === 0) break;
    for (const id of ids) {
      pass.budget--;
      await db.transaction().execute(async (trx) => {
        if ((await deleteTranscriptsOf(trx, id)) > 0) {
          await audit(trx, pass.actor, "retention.transcript_expired", { companyId: r.company_id, callId: id }, pass.now);
          r.transcripts_expired++;
        }
      });
    }
  }
}

async function expireAudio(pass: RetentionPass, r: CompanyRetention, before: string): Promise<void> {
  const db = pass.deps.store.db;
  while (pass.budget > 0) {
    const calls = await callsWithAudioBefore(db, r.company_id, before, batchOf(pass));
    if (calls.length === 0) break;
    for (const c of calls) {
      pass.budget--;
      const cleared = await db.transaction().execute(async (trx) => {
        if (!(await clearCallAudio(trx, c.id, isoNow(pass.now)))) return false;
        await audit(trx, pass.actor, "retention.audio_expired", { companyId: r.company_id, callId: c.id }, pass.now);
        return true;
      });
      if (cleared) {
        await removeAudioIfUnused(pass.deps, c.audio_sha256);
        r.audio_expired++;
      }
    }
  }
}

/** Each company's policy and what it would act on now (doctor). */
export async function retentionStatus(
  deps: Pick<EraseDeps, "store" | "clock">,
): Promise<Array<{ company_id: number; policy: RetentionPolicy; due: DueCounts }>> {
  const now = deps.clock.now();
  const out = [];
  for (const company of await listCompanies(deps.store.db)) {
    const policy = retentionOf(company.settings);
    if (policy.audio_days === null && policy.transcripts_days === null && policy.calls_days === null) continue;
    const due = await countDue(deps.store.db, company.id, {
      audio: policy.audio_days !== null ? cutoff(now, policy.audio_days) : undefined,
      transcripts: policy.transcripts_days !== null ? cutoff(now, policy.transcripts_days) : undefined,
      calls: policy.calls_days !== null ? cutoff(now, policy.calls_days) : undefined,
    });
    out.push({ company_id: company.id, policy, due });
  }
  return out;
}
