import { Command, CommanderError } from "commander";
import { VERSION } from "../src/version.js";
import { analyzeCommand } from "./commands/analyze.js";
import { companyCommand } from "./commands/company.js";
import { copyDataCommand } from "./commands/copy-data.js";
import { deliveriesCommand } from "./commands/deliveries.js";
import { doctorCommand } from "./commands/doctor.js";
import { engineBenchCommand } from "./commands/engine-bench.js";
import { migrateCommand } from "./commands/migrate.js";
import { modelsCommand } from "./commands/models.js";
import { keyCommand } from "./commands/key.js";
import { serveCommand } from "./commands/serve.js";
import { submitCommand } from "./commands/submit.js";
import { callsCommand } from "./commands/calls.js";
import { callsEraseCommand } from "./commands/calls-erase.js";
import { auditCommand } from "./commands/audit.js";
import { backupCommand } from "./commands/backup.js";
import { retentionCommand } from "./commands/retention.js";
import { reportCommand } from "./commands/report.js";
import { webhookCommand } from "./commands/webhook.js";
import { workerCommand } from "./commands/worker.js";
import { trackersCommand } from "./commands/trackers.js";
import type { CliContext } from "./context.js";
import { processIo, type Io } from "./io.js";

/** Builds the whole CLI. Tests call `buildProgram(io).parseAsync([...], { from: "user" })` in process. */
export function buildProgram(io: Io = processIo, env: Record<string, string | undefined> = process.env): Command {
  const ctx: CliContext = { io, env };
  const program = new Command("callreview")
    .description("Self-hosted call review: local transcription and analysis of sales calls")
    .version(VERSION, "-v, --version")
    .option("--data-dir <dir>", "data directory [env CALLREVIEW_DATA_DIR, default ./data]")
    .option("--models-dir <dir>", "models directory [env CALLREVIEW_MODELS_DIR, default ./models]")
    .option("--database-url <url>", "postgres://… store instead of the data dir's SQLite file [env CALLREVIEW_DATABASE_URL]")
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  serveCommand(program, ctx);
  workerCommand(program, ctx);
  migrateCommand(program, ctx);
  copyDataCommand(program, ctx);
  companyCommand(program, ctx);
  keyCommand(program, ctx);
  doctorCommand(program, ctx);
  modelsCommand(program, ctx);
  submitCommand(program, ctx);
  callsCommand(program, ctx);
  callsEraseCommand(program, ctx);
  auditCommand(program, ctx);
  backupCommand(program, ctx);
  retentionCommand(program, ctx);
  reportCommand(program, ctx);
  webhookCommand(program, ctx);
  deliveriesCommand(program, ctx);
  analyzeCommand(program, ctx);
  trackersCommand(program, ctx);
  engineBenchCommand(program, ctx);

  // Subcommands inherit the I/O and error handling.
  for (const c of allCommands(program)) {
    c.exitOverride().configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  }
  return program;
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/** Runs the CLI: exit code 0 on success, 1 with one clear line on stderr on failure. */
export async function runCli(argv: string[], io: Io = processIo, env: Record<string, string | undefined> = process.env): Promise<number> {
  const program = buildProgram(io, env);
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version exit with 0; commander already printed its own message otherwise.
      return e.exitCode === 0 || e.code === "commander.helpDisplayed" || e.code === "commander.version" ? 0 : e.exitCode || 1;
    }
    io.err(`callreview: ${(e as Error).message}`);
    return 1;
  }
}
