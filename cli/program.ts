import { Command, CommanderError } from "commander";
import { VERSION } from "../src/version.js";
import type { CliContext } from "./context.js";
import { addExamples } from "./examples.js";
import { exitCodeOf } from "./exit-codes.js";
import { processIo, type Io } from "./io.js";

type Register = (program: Command, ctx: CliContext) => void;

/** backup.ts registers both `backup` and `restore`: one loader, so the module registers once. */
const backup = async () => (await import("./commands/backup.js")).backupCommand;

/**
 * Every command, in help order, with the top-level name it registers and how to load it. The
 * modules are imported only when their command runs (or for help): a command pays for what it
 * uses, not for the whole service (HTTP app, NLP model, tracker weights, engines).
 */
const COMMANDS: Array<{ name: string; load: () => Promise<Register> }> = [
  { name: "serve", load: async () => (await import("./commands/serve.js")).serveCommand },
  { name: "worker", load: async () => (await import("./commands/worker.js")).workerCommand },
  { name: "migrate", load: async () => (await import("./commands/migrate.js")).migrateCommand },
  { name: "copy-data", load: async () => (await import("./commands/copy-data.js")).copyDataCommand },
  { name: "company", load: async () => (await import("./commands/company.js")).companyCommand },
  { name: "key", load: async () => (await import("./commands/key.js")).keyCommand },
  { name: "doctor", load: async () => (await import("./commands/doctor.js")).doctorCommand },
  { name: "models", load: async () => (await import("./commands/models.js")).modelsCommand },
  { name: "submit", load: async () => (await import("./commands/submit.js")).submitCommand },
  { name: "transcribe", load: async () => (await import("./commands/transcribe.js")).transcribeCommand },
  { name: "calls", load: async () => (await import("./commands/calls.js")).callsCommand },
  { name: "calls", load: async () => (await import("./commands/calls-erase.js")).callsEraseCommand },
  { name: "audit", load: async () => (await import("./commands/audit.js")).auditCommand },
  { name: "backup", load: backup },
  { name: "restore", load: backup },
  { name: "retention", load: async () => (await import("./commands/retention.js")).retentionCommand },
  { name: "report", load: async () => (await import("./commands/report.js")).reportCommand },
  { name: "webhook", load: async () => (await import("./commands/webhook.js")).webhookCommand },
  { name: "deliveries", load: async () => (await import("./commands/deliveries.js")).deliveriesCommand },
  { name: "analyze", load: async () => (await import("./commands/analyze.js")).analyzeCommand },
  { name: "trackers", load: async () => (await import("./commands/trackers.js")).trackersCommand },
  { name: "engine-bench", load: async () => (await import("./commands/engine-bench.js")).engineBenchCommand },
  { name: "user", load: async () => (await import("./commands/user.js")).userCommand },
];

/** Global options that take a value: skipped when looking for the command name. */
const GLOBAL_VALUE_OPTIONS = new Set(["--data-dir", "--audio-dir", "--models-dir", "--database-url"]);

/**
 * The command modules argv needs: only its command's; none for the version alone; all of them
 * for help, no command or an unknown one (so help and commander's suggestions list everything).
 */
function registersFor(argv: string[]): Promise<Register[]> {
  let name: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (GLOBAL_VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a === "-v" || a === "--version") return Promise.resolve([]);
    if (a === "--") break;
    if (a.startsWith("-")) continue;
    name = a;
    break;
  }
  const wanted = COMMANDS.filter((c) => c.name === name);
  const chosen = wanted.length > 0 && !argv.includes("-h") && !argv.includes("--help") ? wanted : COMMANDS;
  return load(chosen);
}

/** Each loader once (see backup). */
function load(commands: typeof COMMANDS): Promise<Register[]> {
  return Promise.all([...new Set(commands.map((c) => c.load))].map((l) => l()));
}

/**
 * Builds the CLI for argv (all commands when argv is not given). Tests call
 * `(await buildProgram(io)).parseAsync([...], { from: "user" })` in process, or runCli.
 */
export async function buildProgram(io: Io = processIo, env: Record<string, string | undefined> = process.env, argv?: string[]): Promise<Command> {
  const ctx: CliContext = { io, env };
  const program = new Command("callreview")
    .description("Self-hosted call review: local transcription and analysis of sales calls")
    .version(VERSION, "-v, --version")
    .option("--data-dir <dir>", "data directory [env CALLREVIEW_DATA_DIR, default ./data]")
    .option("--audio-dir <dir>", "stored audio, shared by every process [env CALLREVIEW_AUDIO_DIR, default <data dir>/audio]")
    .option("--models-dir <dir>", "models directory [env CALLREVIEW_MODELS_DIR, default ./models]")
    .option("--database-url <url>", "postgres://… store instead of the data dir's SQLite file [env CALLREVIEW_DATABASE_URL]")
    .showHelpAfterError(false)
    // Subcommands copy this when created: `--data-dir` and `--models-dir` show in every command's help.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput(output(io));
  addExamples(program);

  for (const register of await (argv ? registersFor(argv) : load(COMMANDS))) {
    register(program, ctx);
  }

  // Subcommands inherit the I/O and error handling.
  for (const c of allCommands(program)) {
    c.exitOverride().configureOutput(output(io));
    addExamples(c);
  }
  return program;
}

/** Commander's own messages take the CLI's one error prefix. */
function output(io: Io) {
  return {
    writeOut: (s: string) => io.out(s.trimEnd()),
    writeErr: (s: string) => io.err(s.trimEnd()),
    outputError: (s: string, write: (s: string) => void) => write(s.replace(/^error: /, "callreview: ")),
  };
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/**
 * Runs the CLI: exit code 0 on success; on failure one line on stderr and
 * 2 (usage), 3 (not found) or 1 (anything else), see cli/exit-codes.ts.
 */
export async function runCli(argv: string[], io: Io = processIo, env: Record<string, string | undefined> = process.env): Promise<number> {
  const program = await buildProgram(io, env, argv);
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (e) {
    // Commander has already printed its own message.
    if (!(e instanceof CommanderError)) io.err(`callreview: ${(e as Error).message}`);
    return exitCodeOf(e);
  }
}
