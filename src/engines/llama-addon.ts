import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { EngineBuild } from "../config.js";
import { isBun } from "../runtime.js";
import { cpuFeatures, type CpuFeatures } from "./cpu-features.js";
import { keepNativeStdioOffStdout } from "./native-stdout.js";

/**
 * The llama.cpp engine: @fugood/llama.node's N-API addon, in one of two builds.
 *   simd     native/out/llama-x86-64-v3/index.node, compiled by native/build-llama.mjs
 *            for AVX2/FMA/F16C (about 30x faster prompt processing)
 *   generic  the vendor's prebuilt @fugood/node-llama-linux-x64 (no AVX: its build
 *            never detected the x86 architecture)
 * Both are required by literal paths so `bun build --compile` embeds both in the
 * executable; nothing is ever downloaded or compiled at run time.
 */
export interface NativeLlamaContext {
  completion(options: Record<string, unknown>, onToken?: (t: unknown) => void): Promise<NativeCompletion>;
  stopCompletion(): void;
  tokenize(text: string): Promise<{ tokens: Int32Array }>;
  bench(pp: number, tg: number, pl: number, nr: number): Promise<Record<string, unknown>>;
  getSystemInfo(): string;
  release(): Promise<void>;
}
export interface NativeCompletion {
  text: string;
  tokens_predicted: number;
  tokens_evaluated: number;
  interrupted: boolean;
  context_full: boolean;
  timings: { prompt_n: number; prompt_ms: number; prompt_per_second: number; predicted_n: number; predicted_ms: number; predicted_per_second: number };
}
export interface LlamaModule {
  LlamaContext: (new (o: Record<string, unknown>) => NativeLlamaContext) & { toggleNativeLog(on: boolean, cb?: (level: string, text: string) => void): void };
}

export const SIMD_FEATURES = ["avx2", "fma", "f16c"] as const satisfies ReadonlyArray<keyof CpuFeatures>;

export interface LlamaEngineInfo {
  build: "simd" | "generic";
  /** What the build was compiled for: "x86-64-v3 (AVX2, FMA, F16C)" or "generic x86-64 (no AVX)". */
  target: string;
  configured: EngineBuild;
  reason: string;
  cpu: CpuFeatures;
}

export class LlamaAddonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LlamaAddonError";
  }
}

const SIMD_TARGET = "x86-64-v3 (AVX2, FMA, F16C)";
const GENERIC_TARGET = "generic x86-64 (no AVX)";

// Bun's bundler embeds an addon only when it sees a literal require() of it; Node's
// ESM has no global require, so it gets one from createRequire.
function requireSimd(): LlamaModule {
  return (
    isBun ? require("../../native/out/llama-x86-64-v3/index.node") : createRequire(import.meta.url)("../../native/out/llama-x86-64-v3/index.node")
  ) as LlamaModule;
}
function requireGeneric(): LlamaModule {
  return (
    isBun ? require("@fugood/node-llama-linux-x64/index.node") : createRequire(import.meta.url)("@fugood/node-llama-linux-x64/index.node")
  ) as LlamaModule;
}

let simdTrial: { module?: LlamaModule; error?: string } | undefined;

/**
 * Whether the SIMD build is there. Under Node it is a file in the source tree.
 * Inside the executable it is embedded only if it was built before `npm run
 * build`, which only loading it tells (loading an addon runs no engine code).
 */
function simdFileState(): "present" | "absent" {
  if (!isBun) {
    const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../native/out/llama-x86-64-v3/index.node");
    return fs.existsSync(file) ? "present" : "absent";
  }
  if (!simdTrial) {
    try {
      simdTrial = { module: requireSimd() };
    } catch (e) {
      simdTrial = { error: (e as Error).message.split("\n")[0] };
    }
  }
  return simdTrial.module ? "present" : "absent";
}

let loaded: { module: LlamaModule; info: LlamaEngineInfo } | undefined;

/**
 * Loads the llama addon once per process. auto = the SIMD build when the CPU has
 * AVX2+FMA+F16C and the build exists, else the generic prebuilt. A forced build
 * that cannot load is an error naming the cause, never a silent fallback.
 */
export function llamaAddon(configured: EngineBuild = "auto"): { module: LlamaModule; info: LlamaEngineInfo } {
  if (loaded && loaded.info.configured === configured) return loaded;
  if (loaded)
    throw new LlamaAddonError(`the ${loaded.info.build} llama engine is already loaded in this process; engine build "${configured}" needs a restart`);
  const cpu = cpuFeatures();
  const missing = SIMD_FEATURES.filter((k) => !cpu[k]);
  let module: LlamaModule;
  let info: LlamaEngineInfo;
  const generic = (reason: string) => {
    try {
      module = requireGeneric();
    } catch (e) {
      throw new LlamaAddonError(`llama engine could not load (@fugood/node-llama-linux-x64: ${(e as Error).message.split("\n")[0]}); reinstall with npm ci`);
    }
    info = { build: "generic", target: GENERIC_TARGET, configured, reason, cpu };
  };
  if (configured === "generic") generic("configured");
  else if (configured === "simd") {
    if (missing.length) throw new LlamaAddonError(`engine build "simd" needs a CPU with ${SIMD_FEATURES.join(", ")}; this one lacks ${missing.join(", ")}`);
    if (simdFileState() === "absent")
      throw new LlamaAddonError(
        `engine build "simd" is not available (${isBun ? "the executable was built without it" : "native/out/llama-x86-64-v3/index.node is missing"}; run npm run build:native${isBun ? ", then npm run build" : ""})`,
      );
    try {
      module = simdTrial?.module ?? requireSimd();
    } catch (e) {
      throw new LlamaAddonError(`engine build "simd" could not load: ${(e as Error).message.split("\n")[0]}`);
    }
    info = { build: "simd", target: SIMD_TARGET, configured, reason: "configured", cpu };
  } else if (missing.length) generic(`CPU lacks ${missing.join(", ")}`);
  else if (simdFileState() === "absent")
    generic(
      isBun
        ? "SIMD build not embedded (the executable was built without it)"
        : "SIMD build not present (native/build-llama.mjs found no compiler, or was not run)",
    );
  else {
    try {
      module = simdTrial?.module ?? requireSimd();
      info = { build: "simd", target: SIMD_TARGET, configured, reason: `CPU has ${SIMD_FEATURES.join(", ")}`, cpu };
    } catch (e) {
      generic(`SIMD build did not load (${(e as Error).message.split("\n")[0]})`);
    }
  }
  keepNativeStdioOffStdout();
  try {
    // llama.cpp's own log lines would otherwise go to stderr on every load and decode step.
    module!.LlamaContext.toggleNativeLog(false);
  } catch {
    // A build without the log switch logs to stderr: harmless.
  }
  loaded = { module: module!, info: info! };
  return loaded;
}

/** What `doctor` and /healthz report, without loading anything. */
export function llamaEngineChoice(configured: EngineBuild = "auto"): Omit<LlamaEngineInfo, "reason"> & { reason: string; loaded: boolean } {
  if (loaded) return { ...loaded.info, loaded: true };
  const cpu = cpuFeatures();
  const missing = SIMD_FEATURES.filter((k) => !cpu[k]);
  if (configured === "generic") return { build: "generic", target: GENERIC_TARGET, configured, reason: "configured", cpu, loaded: false };
  if (configured === "simd")
    return {
      build: "simd",
      target: SIMD_TARGET,
      configured,
      reason: missing.length
        ? `configured, but the CPU lacks ${missing.join(", ")}`
        : simdFileState() === "absent"
          ? "configured, but not built"
          : "configured",
      cpu,
      loaded: false,
    };
  if (missing.length) return { build: "generic", target: GENERIC_TARGET, configured, reason: `CPU lacks ${missing.join(", ")}`, cpu, loaded: false };
  if (simdFileState() === "absent")
    return {
      build: "generic",
      target: GENERIC_TARGET,
      configured,
      reason: isBun ? "SIMD build not embedded in this executable" : "SIMD build not present",
      cpu,
      loaded: false,
    };
  return { build: "simd", target: SIMD_TARGET, configured, reason: `CPU has ${SIMD_FEATURES.join(", ")}`, cpu, loaded: false };
}
