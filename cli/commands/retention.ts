import type { Command } from "commander";
import { RETENTION_ACTOR } from "../../src/lifecycle/audit.js";
import { runRetention } from "../../src/lifecycle/retention/run-retention.js";
import { withServices, type CliContext } from "../context.js";
import { printJson } from "../io.js";

/** `retention run`: what the sweeper inside serve does, once, to the end. */
export function retentionCommand(program: Command, ctx: CliContext): void {
  const retention = program.command("retention").description("Apply the companies' retention policies");
  retention
    .command("run")
    .description("Apply every company's retention policy now (erase old calls, transcripts, audio)")
    .option("--json", "print what was done as JSON")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const run = await withServices(cmd, ctx, (s) => runRetention(s, { actor: RETENTION_ACTOR, auditEmpty: true }));
      if (opts.json) {
        printJson(ctx.io, run);
        return;
      }
      if (run.companies.length === 0) {
        ctx.io.out("No company has a retention policy (company update <id> --retain-audio-days N ...).");
        return;
      }
      ctx.io.out(
        run.companies
          .map(
            (c) =>
              `company ${c.company_id}: ${c.calls_erased} calls erased, ${c.transcripts_expired} transcripts and ${c.audio_expired} audio files expired${c.skipped_processing ? `, ${c.skipped_processing} calls skipped (being processed)` : ""}`,
          )
          .join("\n"),
      );
    });
}
