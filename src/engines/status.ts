import type { Config } from "../config.js";
import { loadWhisperAddon, whisperEngineStatus, type EngineStatus } from "./whisper-addon.js";

/** An engine `doctor` could not load: the build setting asks for something this machine cannot run. */
export interface EngineProblem {
  engine: string;
  build: null;
  simd: [];
  configured: Config["engineBuild"];
  reason: string;
}

/** The native engines loaded in this process (for /healthz); empty while none is (placeholder pipeline). */
export function loadedEngines(): EngineStatus[] {
  const whisper = whisperEngineStatus();
  return whisper ? [whisper] : [];
}

/** Loads each native engine's addon (no model) and says which build runs and why (for `doctor`). */
export function probeEngines(config: Pick<Config, "engineBuild">): Array<EngineStatus | EngineProblem> {
  const out: Array<EngineStatus | EngineProblem> = [];
  try {
    out.push(loadWhisperAddon(config.engineBuild).status);
  } catch (e) {
    out.push({ engine: "whisper.cpp", build: null, simd: [], configured: config.engineBuild, reason: (e as Error).message });
  }
  return out;
}
