import fs from "node:fs";
import type { Command } from "commander";
import { AppError } from "../../src/errors.js";
import { llamaAddon } from "../../src/engines/llama-addon.js";
import { llamaEngineSummary } from "../../src/engines/llama-summary.js";
import { llamaThreads } from "../../src/engines/thread-plan.js";
import { llmModelPath } from "../../src/pipeline/analyzers/factory.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";
import { UsageError } from "../exit-codes.js";
import { printJson } from "../io.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function count(value: string, what: string, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw new UsageError(`invalid ${what} "${value}" (expected an integer from 1 to ${max})`);
  return Number(value);
}

/**
 * `callreview engine-bench`: the llama engine's own speed on this host, as the
 * service runs it (same addon, same thread plan): prompt processing and
 * generation tokens/s, medians of --reps runs after one warm-up.
 */
export function engineBenchCommand(program: Command, ctx: CliContext): void {
  const cmd = program.command("engine-bench").description("Measure the llama engine: prompt processing and generation tokens/s with a GGUF model");
  addConfigOptions(cmd, ["llmModel", "llmThreads", "engineBuild"]);
  cmd
    .option("--pp <tokens>", "prompt tokens processed in one batch", "512")
    .option("--tg <tokens>", "tokens generated one at a time", "128")
    .option("--reps <n>", "measured runs (after one warm-up)", "3")
    .option("--json", "print the figures as JSON")
    .action(async (opts: { pp: string; tg: string; reps: string; json?: boolean }, command: Command) => {
      const config = configFrom(command, ctx);
      const model = llmModelPath(config);
      if (!model) throw new UsageError("engine-bench needs --llm-model (a GGUF file)");
      if (!fs.existsSync(model)) throw new AppError("not_found", `llama model file not found: ${model}`);
      const pp = count(opts.pp, "--pp", 8192);
      const tg = count(opts.tg, "--tg", 4096);
      const reps = count(opts.reps, "--reps", 100);
      // One-shot command: the whole host is this one job's.
      const threads = llamaThreads(1, config.llmThreads);
      const { module, info } = llamaAddon(config.engineBuild);
      const llama = new module.LlamaContext({ model, n_ctx: pp + tg + 16, n_threads: threads, n_gpu_layers: 0, n_parallel: 1 });
      const runs: Array<{ pp_tps: number; tg_tps: number }> = [];
      try {
        for (let r = 0; r <= reps; r++) {
          const b = (await llama.bench(pp, tg, 1, 1)) as { speedPp: number; speedTg: number };
          if (r > 0) runs.push({ pp_tps: b.speedPp, tg_tps: b.speedTg });
        }
      } finally {
        await llama.release();
      }
      const result = {
        model,
        engine: { ...llamaEngineSummary(config.engineBuild), build: info.build, target: info.target, reason: info.reason, loaded: true },
        threads,
        pp,
        tg,
        reps,
        pp_tps: median(runs.map((x) => x.pp_tps)),
        tg_tps: median(runs.map((x) => x.tg_tps)),
        runs,
      };
      if (opts.json) return printJson(ctx.io, result);
      ctx.io.out(
        `llama ${info.build} (${info.target}), ${threads} thread(s): prompt ${result.pp_tps.toFixed(1)} tokens/s (pp ${pp}), generation ${result.tg_tps.toFixed(1)} tokens/s (tg ${tg}); median of ${reps}`,
      );
    });
}
