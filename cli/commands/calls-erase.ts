import type { Command } from "commander";
import { CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { eraseCall } from "../../src/lifecycle/erase-call.js";
import { purgeCalls } from "../../src/lifecycle/purge-calls.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { confirmDestructive } from "../confirm.js";
import { parseIsoOption } from "../dates.js";
import { printJson } from "../io.js";

/** `calls delete|purge`: erasure requests (docs/lifecycle.md). Both ask first on a terminal and refuse without one unless --yes. */
export function callsEraseCommand(program: Command, ctx: CliContext): void {
  const calls = program.commands.find((c) => c.name() === "calls") ?? program.command("calls").description("Inspect calls");

  calls
    .command("delete <call_id>")
    .description("Erase a call for good: audio, transcript, reports, history, unsent deliveries (emits call.deleted)")
    .option("-y, --yes", "erase without asking (required when not on a terminal)")
    .option("--json", "print what was erased as JSON")
    .action(async (idArg: string, opts: { yes?: boolean; json?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "call id");
      await confirmDestructive(ctx, opts.yes, `erase call ${id} for good`);
      const r = await withServices(cmd, ctx, (s) => eraseCall(s, { callId: id, actor: CLI_ACTOR }));
      if (opts.json) printJson(ctx.io, { ...r, deleted: true });
      else
        ctx.io.out(
          `Erased call ${id} (company ${r.company_id}): ${r.rows.transcripts} transcripts, ${r.rows.reports} reports, ${r.rows.deliveries_dropped} unsent deliveries; audio ${r.audio_removed ? "removed" : "none or shared"}`,
        );
      if (r.log_emptied === false)
        ctx.io.err(
          "Note: another process held an old read snapshot, so the database's write-ahead log still holds old pages until its next checkpoint (docs/lifecycle.md).",
        );
    });

  calls
    .command("purge")
    .description("Erase every call of a company created before a date")
    .requiredOption("--company <id>", "company whose calls are erased")
    .requiredOption("--before <date>", "erase calls created before this ISO 8601 date or date-time (UTC)")
    .option("--dry-run", "only list the calls that would be erased")
    .option("-y, --yes", "erase without asking (required when not on a terminal, unless --dry-run)")
    .option("--json", "print the result as JSON")
    .action(async (opts: { company: string; before: string; dryRun?: boolean; yes?: boolean; json?: boolean }, cmd: Command) => {
      const companyId = parseId(opts.company, "--company");
      const before = parseIsoOption(opts.before, "--before");
      if (!opts.dryRun) await confirmDestructive(ctx, opts.yes, `erase every call of company ${companyId} created before ${before} (try --dry-run first)`);
      const r = await withServices(cmd, ctx, (s) => purgeCalls(s, { companyId, before, dryRun: opts.dryRun === true, actor: CLI_ACTOR }));
      if (opts.json) {
        printJson(ctx.io, r);
        return;
      }
      const verb = r.dry_run ? "Would erase" : "Erased";
      ctx.io.out(`${verb} ${r.call_ids.length} calls of company ${companyId} created before ${before}${r.call_ids.length ? `: ${r.call_ids.join(", ")}` : ""}`);
      if (r.skipped_processing.length)
        ctx.io.err(
          `Skipped ${r.skipped_processing.length} calls being processed right now (${r.skipped_processing.join(", ")}): run the purge again once they finish.`,
        );
    });
}
