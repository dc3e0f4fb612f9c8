import type { Command } from "commander";
import { withoutCredentials } from "../../src/calls/recording-url.js";
import { toCallResource } from "../../src/calls/resource.js";
import { callHistory } from "../../src/calls/state.js";
import { PROCESSING_STATUSES } from "../../src/calls/state.js";
import { AppError } from "../../src/errors.js";
import { audit, CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { latestJobOfCall } from "../../src/queue/job-of-call.js";
import { getCall } from "../../src/store/calls.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { printJson } from "../io.js";
import { formatTranscript } from "../transcript-format.js";
import { latestTranscriptRow, toTranscript } from "../../src/store/transcripts.js";

/** `calls list|show`: read the store directly (admins on the server see every company). */
export function callsCommand(program: Command, ctx: CliContext): void {
  const calls = program.command("calls").description("Inspect calls");

  calls
    .command("list")
    .description("List calls, newest first")
    .option("--company <id>", "only this company's calls")
    .option("--status <status>", `only calls in this processing status (${PROCESSING_STATUSES.join(", ")})`)
    .option("--limit <n>", "how many (1-1000, default 25)", "25")
    .option("--json", "print the calls as JSON")
    .action(async (opts: { company?: string; status?: string; limit: string; json?: boolean }, cmd: Command) => {
      const companyId = opts.company !== undefined ? parseId(opts.company, "--company") : undefined;
      const limit = parseId(opts.limit, "--limit");
      if (limit > 1000) throw new Error(`invalid --limit "${opts.limit}" (expected 1 to 1000)`);
      if (opts.status !== undefined && !(PROCESSING_STATUSES as readonly string[]).includes(opts.status)) {
        throw new Error(`invalid --status "${opts.status}" (expected one of ${PROCESSING_STATUSES.join(", ")})`);
      }
      const rows = await withServices(cmd, ctx, (s) => {
        let q = s.store.db.selectFrom("calls").selectAll();
        if (companyId !== undefined) q = q.where("company_id", "=", companyId);
        if (opts.status !== undefined) q = q.where("processing_status", "=", opts.status as (typeof PROCESSING_STATUSES)[number]);
        return q.orderBy("id", "desc").limit(limit).execute();
      });
      if (opts.json) {
        printJson(ctx.io, rows.map((r) => ({ company_id: r.company_id, ...toCallResource(r) })));
        return;
      }
      if (rows.length === 0) {
        ctx.io.out("No calls.");
        return;
      }
      ctx.io.out(
        rows
          .map((r) => [r.id, `company ${r.company_id}`, r.processing_status, r.overall_score ?? "-", r.outcome ?? r.failure_reason ?? "-", r.customer_name ?? "", r.created_at].join("\t"))
          .join("\n"),
      );
    });

  calls
    .command("show <call_id>")
    .description("Show one call with its state history")
    .option("--json", "print the call as JSON")
    .option("--transcript", "also print the transcript and talk metrics")
    .action(async (idArg: string, opts: { json?: boolean; transcript?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "call id");
      const { call, history, job, transcript } = await withServices(cmd, ctx, async (s) => {
        const call = await getCall(s.store.db, id);
        if (!call) throw new AppError("not_found", `call ${id} not found`);
        const row = opts.transcript ? await latestTranscriptRow(s.store.db, id) : undefined;
        if (row) await audit(s.store.db, CLI_ACTOR, "transcript.read", { companyId: call.company_id, callId: id }, s.clock.now());
        return { call, history: await callHistory(s.store.db, id), job: await latestJobOfCall(s.store.db, id), transcript: row ? toTranscript(row) : null };
      });
      const resource = { company_id: call.company_id, ...toCallResource(call) };
      const jobView = job ? { status: job.status, attempts: job.attempts, max_attempts: job.max_attempts, run_at: job.run_at, stage: job.stage, progress: job.progress, last_error: job.last_error } : null;
      if (opts.json) {
        printJson(ctx.io, { ...resource, history: history.map((h) => ({ from: h.from_status, to: h.to_status, reason: h.reason, at: h.at })), job: jobView, ...(opts.transcript ? { transcript } : {}) });
        return;
      }
      const lines = [
        `Call ${call.id} (company ${call.company_id}${call.external_call_id ? `, external id ${call.external_call_id}` : ""})`,
        `  status     ${call.processing_status}${call.failure_reason ? ` (${call.failure_reason}${call.failure_detail ? `: ${call.failure_detail}` : ""})` : ""}, report ${call.report_status}`,
        `  score      ${call.overall_score ?? "-"}   outcome ${call.outcome ?? "-"}`,
        `  rep        ${call.rep_name ?? "-"}   customer ${call.customer_name ?? "-"}`,
        `  audio      ${call.recording_url ? withoutCredentials(call.recording_url) : (call.audio_sha256 ? `${call.audio_format}, ${call.audio_bytes} bytes` : "none")}`,
        `  created    ${call.created_at}`,
        ...(jobView
          ? [
              `  job        ${jobView.status}, attempt ${jobView.attempts}/${jobView.max_attempts}` +
                `${jobView.status === "queued" && jobView.attempts > 0 ? `, next attempt ${jobView.run_at}` : ""}` +
                `${jobView.stage ? `, ${jobView.stage}${jobView.progress !== null ? ` ${jobView.progress}%` : ""}` : ""}` +
                `${jobView.last_error ? `, last error: ${jobView.last_error}` : ""}`,
            ]
          : []),
        "  history",
        ...history.map((h) => `    ${h.at}  ${h.from_status ?? "-"} -> ${h.to_status}${h.reason ? `  (${h.reason})` : ""}`),
        ...(opts.transcript ? [transcript ? formatTranscript(transcript) : "Transcript: none yet"] : []),
      ];
      ctx.io.out(lines.join("\n"));
    });
}
