import os from "node:os";

/**
 * CPU threads per llama analysis so that workers × threads ≤ cores. llama.cpp's
 * threads wait for each other at every step (they spin), so one more thread than
 * there are free cores costs far more than it brings: on 2 loaded cores the same
 * 23 tokens took 25 s with too many threads against 30 ms without. `workers` is
 * how many pipeline jobs may run at once (serve's --workers; 1 for one-shot
 * commands); an explicit --llm-threads wins.
 */
export function llamaThreads(workers = 1, configured = 0, cores = availableCores()): number {
  if (configured > 0) return configured;
  return Math.max(1, Math.floor(cores / Math.max(1, workers)));
}

export function availableCores(): number {
  return Math.max(1, typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length);
}
