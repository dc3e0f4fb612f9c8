import type { Command } from "commander";
import { AppError } from "../../src/errors.js";
import { startWorkerProcess } from "../../src/worker-process.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";

export function workerCommand(program: Command, ctx: CliContext): void {
  const cmd = program.command("worker").description("Run pipeline workers and the webhook dispatcher, without the HTTP API");
  addConfigOptions(cmd, [
    "pipeline",
    "workers",
    "analyzer",
    "llmModel",
    "ollamaUrl",
    "ollamaModel",
    "analysisTimeoutSeconds",
    "llmContextSize",
    "llmThreads",
    "logLevel",
    "jobLeaseSeconds",
    "retryBaseMs",
    "downloadConnectTimeoutMs",
    "downloadIdleTimeoutMs",
    "downloadTimeoutMs",
    "downloadConcurrency",
    "companyMaxInflight",
    "dbBusyTimeoutMs",
    "dbSynchronous",
    "downloadAllow",
    "downloadDeny",
    "whisperModel",
    "whisperThreads",
    "engineBuild",
    "ffmpegPath",
  ]);
  cmd.action(async (_opts: unknown, command: Command) => {
    const config = configFrom(command, ctx);
    if (config.workers < 1) throw new AppError("invalid_config", "worker needs --workers 1 or more");
    const running = await startWorkerProcess(config);
    await new Promise<void>((resolve) => {
      let stopping = false;
      const shutdown = (signal: string) => {
        if (stopping) return;
        stopping = true;
        running.services.logger.info("shutting down", { signal });
        running.stop().then(resolve, (e) => {
          ctx.io.err(`callreview: error while stopping: ${(e as Error).message}`);
          resolve();
        });
      };
      // `on`, not `once`: see serve.ts (Bun's default action would cut the graceful stop short).
      process.on("SIGTERM", () => shutdown("SIGTERM"));
      process.on("SIGINT", () => shutdown("SIGINT"));
      ctx.io.err(`callreview worker running ${config.workers} workers (pipeline ${running.services.pipeline}, store ${running.services.store.file})`);
    });
    setTimeout(() => process.exit(), 2000).unref();
  });
}
