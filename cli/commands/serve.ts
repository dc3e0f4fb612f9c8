import type { Command } from "commander";
import { startService } from "../../src/serve.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";
import { runUntilSignal } from "../run-until-signal.js";
import { PROCESS_SETTINGS } from "../setting-groups.js";

export function serveCommand(program: Command, ctx: CliContext): void {
  const cmd = program.command("serve").description("Run the HTTP API and the pipeline workers");
  addConfigOptions(cmd, ["host", "port", "rateLimit", "rateLimitWindowSeconds", "maxUploadMb", ...PROCESS_SETTINGS, "retentionIntervalSeconds"]);
  cmd.action(async (_opts: unknown, command: Command) => {
    const config = configFrom(command, ctx);
    const running = await startService(config);
    await runUntilSignal(ctx, running, `callreview listening on ${running.url} (pipeline ${running.services.pipeline}, data dir ${config.dataDir})`);
  });
}
