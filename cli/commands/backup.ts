import type { Command } from "commander";
import { createBackup } from "../../src/lifecycle/backup/create-backup.js";
import { restoreBackup } from "../../src/lifecycle/backup/restore-backup.js";
import { CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { configFrom, withServices, type CliContext } from "../context.js";
import { confirmDestructive } from "../confirm.js";
import { printJson } from "../io.js";

/** `backup <dir>` (online, safe while serve runs) and `restore <dir>` (into an empty data dir). */
export function backupCommand(program: Command, ctx: CliContext): void {
  program
    .command("backup <dir>")
    .description("Copy the database (consistent snapshot) and its audio into a new directory, with a sha256 manifest; safe while serve runs")
    .option("--json", "print the manifest as JSON")
    .action(async (dir: string, opts: { json?: boolean }, cmd: Command) => {
      const m = await withServices(cmd, ctx, (s) => createBackup(s, { dir, actor: CLI_ACTOR }));
      if (opts.json) printJson(ctx.io, m);
      else ctx.io.out(`Backed up ${m.calls} calls, ${m.audio.length} audio files (schema ${m.schema_version}) to ${dir}`);
      if (m.missing_audio.length)
        ctx.io.err(`${m.missing_audio.length} audio files were erased while the backup ran; their calls are in the backup without audio.`);
    });

  program
    .command("restore <dir>")
    .description("Restore a backup into the data dir after verifying every file against its manifest")
    .option("--force", "replace the database and audio of a non-empty data dir (stop serve first)")
    .option("-y, --yes", "with --force: replace without asking (required when not on a terminal)")
    .option("--json", "print the restored manifest as JSON")
    .action(async (dir: string, opts: { force?: boolean; yes?: boolean; json?: boolean }, cmd: Command) => {
      const config = configFrom(cmd, ctx);
      // Into an empty data dir a restore destroys nothing; --force replaces what is there.
      if (opts.force) await confirmDestructive(ctx, opts.yes, `replace the database and audio of ${config.dataDir} with the backup in ${dir}`);
      const r = await restoreBackup({ from: dir, dataDir: config.dataDir, audioDir: config.audioDir, force: opts.force === true, actor: CLI_ACTOR });
      if (opts.json) printJson(ctx.io, r);
      else ctx.io.out(`Restored ${r.calls} calls, ${r.audio.length} audio files from the backup of ${r.created_at} into ${r.restored_to}`);
    });
}
