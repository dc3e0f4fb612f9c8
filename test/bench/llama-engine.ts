/**
 * Part of `npm run bench:analyze`: llama prompt processing and generation
 * tokens/s inside the compiled executable (`callreview engine-bench`, SIMD and
 * generic builds) against llama.cpp's C API compiled from the same sources and
 * flags (native/bench/llama-cbench.cpp, built by `node native/build-llama.mjs
 * --bench`), on the stories260K fixture and a synthetic ~100M-parameter Q4_0
 * llama written at bench time (never committed). Medians of 3 after a warm-up.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { availableCores } from "../../src/engines/thread-plan.js";
import { fixturesDir, repoRoot } from "../helpers/fixtures.js";
import { writeSyntheticLlama } from "./gguf-synth.js";

const BIN = path.join(repoRoot, "dist", "callreview");
const CBENCH = path.join(repoRoot, "native", "out", "llama-x86-64-v3", "llama-cbench");
const PP = 512;
const TG = 128;
const REPS = 3;

interface Figures {
  pp_tps: number;
  tg_tps: number;
}

function binaryBench(model: string, build: "simd" | "generic", threads: number): (Figures & { build: string }) | string {
  const r = spawnSync(
    BIN,
    [
      "engine-bench",
      "--llm-model",
      model,
      "--engine-build",
      build,
      "--llm-threads",
      String(threads),
      "--pp",
      String(PP),
      "--tg",
      String(TG),
      "--reps",
      String(REPS),
      "--json",
    ],
    { encoding: "utf8", timeout: 1_800_000 },
  );
  if (r.status !== 0) return (r.stderr || `exit ${r.status}`).trim().split("\n").at(-1)!;
  const j = JSON.parse(r.stdout);
  return { pp_tps: j.pp_tps, tg_tps: j.tg_tps, build: j.engine.build };
}

function cBench(model: string, threads: number): Figures | string {
  if (!fs.existsSync(CBENCH)) return "llama-cbench not built (node native/build-llama.mjs --bench)";
  const r = spawnSync(CBENCH, [model, String(PP), String(TG), String(REPS), String(threads)], { encoding: "utf8", timeout: 1_800_000 });
  if (r.status !== 0) return (r.stderr || `exit ${r.status}`).trim();
  return JSON.parse(r.stdout.trim());
}

const fmt = (f: Figures | string) => (typeof f === "string" ? `n/a (${f})` : `pp ${f.pp_tps.toFixed(1)} tok/s, tg ${f.tg_tps.toFixed(1)} tok/s`);

export async function benchLlamaEngine(): Promise<void> {
  if (!fs.existsSync(BIN)) {
    console.log("llama engine: dist/callreview missing (npm run build)");
    return;
  }
  const stories = path.join(fixturesDir, "stories260K.gguf");
  if (!fs.existsSync(stories)) {
    console.log("llama engine: stories260K fixture missing");
    return;
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "callreview-bench-"));
  try {
    const synth = path.join(tmp, "synthetic-100m-q4_0.gguf");
    const params = writeSyntheticLlama(synth, stories);
    const threads = availableCores();
    console.log(
      `llama engine (pp ${PP}, tg ${TG}, ${threads} threads, median of ${REPS}; load before ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}):`,
    );
    for (const [name, model] of [
      ["stories260K", stories],
      [`synthetic ${(params / 1e6).toFixed(0)}M Q4_0`, synth],
    ] as const) {
      const simd = binaryBench(model, "simd", threads);
      const generic = binaryBench(model, "generic", threads);
      const c = cBench(model, threads);
      const ratio =
        typeof simd !== "string" && typeof c !== "string"
          ? ` | executable/llama.cpp pp ${(simd.pp_tps / c.pp_tps).toFixed(2)}x, tg ${(simd.tg_tps / c.tg_tps).toFixed(2)}x`
          : "";
      console.log(`  ${name}: executable simd ${fmt(simd)} | executable generic ${fmt(generic)} | llama.cpp C API, same sources ${fmt(c)}${ratio}`);
    }
    console.log(
      `  load after ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
