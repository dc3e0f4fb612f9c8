import type { Command } from "commander";
import { startService } from "../../src/serve.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";

export function serveCommand(program: Command, ctx: CliContext): void {
  const cmd = program.command("serve").description("Run the HTTP API and the pipeline workers");
  addConfigOptions(cmd, [
    "host",
    "port",
    "pipeline",
    "workers",
    "rateLimit",
    "rateLimitWindowSeconds",
    "maxUploadMb",
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
    "retentionIntervalSeconds",
  ]);
  cmd.action(async (_opts: unknown, command: Command) => {
    const config = configFrom(command, ctx);
    const running = await startService(config);
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
      // `on`, not `once`: in the compiled executable (Bun) a `once` handler, once removed, let the
      // signal's default action kill the process in the middle of the graceful stop.
      process.on("SIGTERM", () => shutdown("SIGTERM"));
      process.on("SIGINT", () => shutdown("SIGINT"));
      // Announced once the handlers are in place: a supervisor that signals right after this line gets a clean stop.
      ctx.io.err(`callreview listening on ${running.url} (pipeline ${running.services.pipeline}, data dir ${config.dataDir})`);
    });
    // Everything is stopped and the database closed: a handle left open by a
    // request that never completed must not keep the process alive.
    setTimeout(() => process.exit(), 2000).unref();
  });
}
