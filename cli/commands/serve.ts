import type { Command } from "commander";
import { startService } from "../../src/serve.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";

export function serveCommand(program: Command, ctx: CliContext): void {
  const cmd = program.command("serve").description("Run the HTTP API and the pipeline workers");
  addConfigOptions(cmd, ["host", "port", "pipeline", "workers", "rateLimit", "rateLimitWindowSeconds", "maxUploadMb", "analyzer", "llmModel", "ollamaUrl", "ollamaModel", "analysisTimeoutSeconds", "llmContextSize", "llmThreads", "engineBuild", "logLevel", "jobLeaseSeconds", "retryBaseMs", "downloadConnectTimeoutMs", "downloadTimeoutMs", "whisperModel", "whisperThreads", "ffmpegPath"]);
  cmd.action(async (_opts: unknown, command: Command) => {
    const config = configFrom(command, ctx);
    const running = await startService(config);
    ctx.io.err(`callreview listening on ${running.url} (pipeline ${running.services.pipeline}, data dir ${config.dataDir})`);
    await new Promise<void>((resolve) => {
      const shutdown = (signal: string) => {
        running.services.logger.info("shutting down", { signal });
        running.stop().then(resolve, (e) => {
          ctx.io.err(`callreview: error while stopping: ${(e as Error).message}`);
          resolve();
        });
      };
      process.once("SIGTERM", () => shutdown("SIGTERM"));
      process.once("SIGINT", () => shutdown("SIGINT"));
    });
  });
}
