import { Option, type Command } from "commander";
import { withoutCredentials } from "../../src/calls/recording-url.js";
import { toCallResource } from "../../src/calls/resource.js";
import { callHistory } from "../../src/calls/state.js";
import { PROCESSING_STATUSES } from "../../src/calls/state.js";
import { AppError } from "../../src/errors.js";
import { audit, CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { latestJobOfCall } from "../../src/queue/job-of-call.js";
import { getCall } from "../../src/store/calls.js";
import { listCallsForAdmin } from "../../src/store/calls-admin-list.js";
import type { CallRow } from "../../src/store/schema.js";
import type { ProcessingStatus } from "../../src/store/states.js";
import type { Services } from "../../src/services.js";
import { intRange, positiveInt } from "../arg-parsers.js";
import { printTable } from "../table.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { printJson } from "../io.js";
import { formatTranscript } from "../transcript-format.js";
import { latestTranscriptRow, toTranscript } from "../../src/store/transcripts.js";

/** `calls list|show`: read the store directly (admins on the server see every company). */
export function callsCommand(program: Command, ctx: CliContext): void {
  const calls = program.command("calls").description("Inspect calls");
  callsListCommand(calls, ctx);
  callsShowCommand(calls, ctx);
}

function callsListCommand(calls: Command, ctx: CliContext): void {
  calls
    .command("list")
    .description("List calls, newest first")
    .addOption(new Option("--company <id>", "only this company's calls").argParser(positiveInt))
    .addOption(new Option("--status <status>", "only calls in this processing status").choices(PROCESSING_STATUSES))
    .addOption(new Option("--limit <n>", "how many (1-1000)").argParser(intRange(1, 1000)).default(25))
    .option("--json", "print the calls as JSON")
    .action(async (opts: { company?: number; status?: ProcessingStatus; limit: number; json?: boolean }, cmd: Command) => {
      const rows = await withServices(cmd, ctx, (s) => listCallsForAdmin(s.store.db, { companyId: opts.company, status: opts.status, limit: opts.limit }));
      if (opts.json)
        printJson(
          ctx.io,
          rows.map((r) => ({ company_id: r.company_id, ...toCallResource(r) })),
        );
      else if (rows.length === 0) ctx.io.out("No calls.");
      else
        printTable(
          ctx.io,
          ["id", "company", "status", "score", "outcome", "customer", "created_at"],
          rows.map((r) => [r.id, r.company_id, r.processing_status, r.overall_score, r.outcome ?? r.failure_reason, r.customer_name, r.created_at]),
        );
    });
}

function callsShowCommand(calls: Command, ctx: CliContext): void {
  calls
    .command("show <call_id>")
    .description("Show one call with its state history")
    .option("--json", "print the call as JSON")
    .option("--transcript", "also print the transcript and talk metrics")
    .action(async (idArg: string, opts: { json?: boolean; transcript?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "call id");
      const found = await withServices(cmd, ctx, (s) => loadCall(s, id, opts.transcript === true));
      const { call, history, transcript } = found;
      const job = jobView(found.job);
      if (opts.json) {
        printJson(ctx.io, {
          company_id: call.company_id,
          ...toCallResource(call),
          history: history.map((h) => ({ from: h.from_status, to: h.to_status, reason: h.reason, at: h.at })),
          job,
          ...(opts.transcript ? { transcript } : {}),
        });
        return;
      }
      ctx.io.out(
        [
          ...describeCall(call, job),
          "  history",
          ...history.map((h) => `    ${h.at}  ${h.from_status ?? "-"} -> ${h.to_status}${h.reason ? `  (${h.reason})` : ""}`),
          ...(opts.transcript ? [transcript ? formatTranscript(transcript) : "Transcript: none yet"] : []),
        ].join("\n"),
      );
    });
}

/** The call, its history and job, and (recorded in the audit trail) its transcript when asked for. */
async function loadCall(s: Services, id: number, withTranscript: boolean) {
  const call = await getCall(s.store.db, id);
  if (!call) throw new AppError("not_found", `call ${id} not found`);
  const row = withTranscript ? await latestTranscriptRow(s.store.db, id) : undefined;
  if (row) await audit(s.store.db, CLI_ACTOR, "transcript.read", { companyId: call.company_id, callId: id }, s.clock.now());
  return { call, history: await callHistory(s.store.db, id), job: await latestJobOfCall(s.store.db, id), transcript: row ? toTranscript(row) : null };
}

type Job = Awaited<ReturnType<typeof latestJobOfCall>>;

function jobView(job: Job) {
  return job
    ? {
        status: job.status,
        attempts: job.attempts,
        max_attempts: job.max_attempts,
        run_at: job.run_at,
        stage: job.stage,
        progress: job.progress,
        last_error: job.last_error,
      }
    : null;
}

function describeCall(call: CallRow, job: ReturnType<typeof jobView>): string[] {
  return [
    `Call ${call.id} (company ${call.company_id}${call.external_call_id ? `, external id ${call.external_call_id}` : ""})`,
    `  status     ${call.processing_status}${call.failure_reason ? ` (${call.failure_reason}${call.failure_detail ? `: ${call.failure_detail}` : ""})` : ""}, report ${call.report_status}`,
    `  score      ${call.overall_score ?? "-"}   outcome ${call.outcome ?? "-"}`,
    `  rep        ${call.rep_name ?? "-"}   customer ${call.customer_name ?? "-"}`,
    `  audio      ${call.recording_url ? withoutCredentials(call.recording_url) : call.audio_sha256 ? `${call.audio_format}, ${call.audio_bytes} bytes` : "none"}`,
    `  created    ${call.created_at}`,
    ...(job
      ? [
          `  job        ${job.status}, attempt ${job.attempts}/${job.max_attempts}` +
            `${job.status === "queued" && job.attempts > 0 ? `, next attempt ${job.run_at}` : ""}` +
            `${job.stage ? `, ${job.stage}${job.progress !== null ? ` ${job.progress}%` : ""}` : ""}` +
            `${job.last_error ? `, last error: ${job.last_error}` : ""}`,
        ]
      : []),
  ];
}
