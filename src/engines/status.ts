import type { Config, EngineBuild } from "../config.js";
import { llamaEngineChoice, SIMD_FEATURES as LLAMA_SIMD_FEATURES } from "./llama-addon.js";
import { loadWhisperAddon, whisperEngineStatus, type EngineStatus } from "./whisper-addon.js";

/** An engine `doctor` could not load: the build setting asks for something this machine cannot run. */
export interface EngineProblem {
  engine: string;
  build: null;
  simd: [];
  configured: Config["engineBuild"];
  reason: string;
}

/** The llama.cpp build this process runs (or would run) in the shape every engine is listed in. */
export function llamaEngineStatus(configured: EngineBuild): EngineStatus {
  const c = llamaEngineChoice(configured);
  const simd = c.build === "simd";
  return { engine: "llama.cpp", build: simd ? "x86-64-v3" : "generic", simd: simd ? [...LLAMA_SIMD_FEATURES] : [], configured, reason: c.reason };
}

/**
 * The native engines of this process (for /healthz): whisper.cpp once loaded (live pipeline), and
 * llama.cpp when it is the analyzer (`llamaBuild` is then the configured build); empty otherwise.
 */
export function loadedEngines(llamaBuild: EngineBuild | null = null): EngineStatus[] {
  const out: EngineStatus[] = [];
  const whisper = whisperEngineStatus();
  if (whisper) out.push(whisper);
  if (llamaBuild) out.push(llamaEngineStatus(llamaBuild));
  return out;
}

/** Each native engine's build and why (for `doctor`): whisper's addon is loaded (no model); llama's is chosen, not loaded. */
export function probeEngines(config: Pick<Config, "engineBuild">): Array<EngineStatus | EngineProblem> {
  const out: Array<EngineStatus | EngineProblem> = [];
  try {
    out.push(loadWhisperAddon(config.engineBuild).status);
  } catch (e) {
    out.push({ engine: "whisper.cpp", build: null, simd: [], configured: config.engineBuild, reason: (e as Error).message });
  }
  out.push(llamaEngineStatus(config.engineBuild));
  return out;
}
