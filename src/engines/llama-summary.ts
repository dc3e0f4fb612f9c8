import type { EngineBuild } from "../config.js";
import { llamaEngineChoice, SIMD_FEATURES } from "./llama-addon.js";

/** The llama engine build as /healthz and `doctor` show it: which build, for which ISA, and the CPU features that decided it. */
export function llamaEngineSummary(configured: EngineBuild) {
  const c = llamaEngineChoice(configured);
  return {
    build: c.build,
    target: c.target,
    configured: c.configured,
    reason: c.reason,
    loaded: c.loaded,
    cpu_features: c.cpu,
    simd_requires: [...SIMD_FEATURES],
  };
}
