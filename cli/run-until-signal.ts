import type { CliContext } from "./context.js";

interface Running {
  services: { logger: { info(msg: string, fields?: Record<string, unknown>): void } };
  stop(): Promise<void>;
}

/**
 * Keeps a long-running command (serve, worker) alive until SIGTERM or SIGINT,
 * then stops it gracefully. `banner` is printed once the handlers are in place:
 * a supervisor that signals right after that line gets a clean stop.
 */
export async function runUntilSignal(ctx: CliContext, running: Running, banner: string): Promise<void> {
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
    ctx.io.err(banner);
  });
  // Everything is stopped and the database closed: a handle left open by a
  // request that never completed must not keep the process alive.
  setTimeout(() => process.exit(), 2000).unref();
}
