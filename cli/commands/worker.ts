import type { Command } from "commander";
import { AppError } from "../../src/errors.js";
import { startWorkerProcess } from "../../src/worker-process.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";
import { runUntilSignal } from "../run-until-signal.js";
import { PROCESS_SETTINGS } from "../setting-groups.js";

export function workerCommand(program: Command, ctx: CliContext): void {
  const cmd = program.command("worker").description("Run pipeline workers and the webhook dispatcher, without the HTTP API");
  addConfigOptions(cmd, PROCESS_SETTINGS);
  cmd.action(async (_opts: unknown, command: Command) => {
    const config = configFrom(command, ctx);
    if (config.workers < 1) throw new AppError("invalid_config", "worker needs --workers 1 or more");
    const running = await startWorkerProcess(config);
    await runUntilSignal(
      ctx,
      running,
      `callreview worker running ${config.workers} workers (pipeline ${running.services.pipeline}, store ${running.services.store.file})`,
    );
  });
}
