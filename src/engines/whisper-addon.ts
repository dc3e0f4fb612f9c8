import { createRequire } from "node:module";
import target from "../../native/whisper-target.json" with { type: "json" };
import type { EngineBuild } from "../config.js";
import { AppError } from "../errors.js";
import { isBun } from "../runtime.js";
import { cpuFeatures, missingFeatures, type CpuFeature, type CpuFeatures } from "./cpu-features.js";

/** What `doctor` and `/healthz` say about one native engine. */
export interface EngineStatus {
  engine: string;
  /** The build in use: the SIMD target's name (x86-64-v3) or `generic`. */
  build: string;
  /** SIMD extensions the loaded build uses; empty for the generic build. */
  simd: CpuFeature[];
  configured: EngineBuild;
  /** Why this build: the CPU, the setting, or why the SIMD build could not load. */
  reason: string;
}

const SIMD_NAME: string = target.name;
const SIMD_FEATURES = target.features as CpuFeature[];

/**
 * Which build to try first. The SIMD build is never loaded on a CPU missing one of its
 * extensions: it would die with an illegal instruction on the first matrix product.
 */
export function chooseWhisperBuild(choice: EngineBuild, have: CpuFeatures): { use: "simd" | "generic"; reason: string } {
  const missing = missingFeatures(SIMD_FEATURES, have);
  if (choice === "generic") return { use: "generic", reason: "engine build set to generic" };
  if (missing.length > 0) {
    if (choice === "simd") {
      throw new AppError(
        "invalid_config",
        `engine build simd needs ${SIMD_FEATURES.join(", ")}; this CPU lacks ${missing.join(", ")} (use --engine-build auto or generic)`,
      );
    }
    return { use: "generic", reason: `CPU lacks ${missing.join(", ")}` };
  }
  return { use: "simd", reason: choice === "simd" ? "engine build set to simd" : `CPU has ${SIMD_FEATURES.join(", ")}` };
}

// Both addons are required by LITERAL paths so `bun build --compile` embeds both in the
// executable (it embeds only what it sees required by a constant string); Node's ESM has no
// global require, so it gets one from createRequire. The SIMD addon is built by native/build.mjs
// before the executable is; when it was not built the require fails and the generic one is used.
function requireSimd(): unknown {
  return isBun ? require("../../native/out/whisper-x86-64-v3/index.node") : createRequire(import.meta.url)("../../native/out/whisper-x86-64-v3/index.node");
}

function requireGeneric(): unknown {
  return isBun ? require("@fugood/node-whisper-linux-x64/index.node") : createRequire(import.meta.url)("@fugood/node-whisper-linux-x64/index.node");
}

let loaded: { addon: unknown; status: EngineStatus } | undefined;

/**
 * The whisper.cpp addon for this process, loaded once: the first caller's setting decides (a
 * process runs one engine build). `simd` fails with invalid_config when the SIMD build cannot run.
 */
export function loadWhisperAddon(choice: EngineBuild = "auto"): { addon: unknown; status: EngineStatus } {
  if (loaded) return loaded;
  const pick = chooseWhisperBuild(choice, cpuFeatures());
  if (pick.use === "simd") {
    try {
      loaded = { addon: requireSimd(), status: { engine: "whisper.cpp", build: SIMD_NAME, simd: [...SIMD_FEATURES], configured: choice, reason: pick.reason } };
      return loaded;
    } catch (e) {
      const why = `the ${SIMD_NAME} build did not load (${firstLine((e as Error).message)})`;
      if (choice === "simd") throw new AppError("invalid_config", `engine build simd: ${why}; build it with \`npm run build:native\` (needs cmake and g++)`);
      pick.reason = `${why}; using the prebuilt generic build`;
    }
  }
  loaded = { addon: requireGeneric(), status: { engine: "whisper.cpp", build: "generic", simd: [], configured: choice, reason: pick.reason } };
  return loaded;
}

/** The loaded engine's status, or null before any whisper model was loaded. */
export function whisperEngineStatus(): EngineStatus | null {
  return loaded?.status ?? null;
}

function firstLine(s: string): string {
  return s.split("\n")[0].slice(0, 200);
}
