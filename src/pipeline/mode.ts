import type { PipelineMode } from "../config.js";
import { scanModels } from "../models/find.js";

export type ActivePipeline = "placeholder" | "live";

/** `auto` runs live only when a whisper model is installed; otherwise the placeholder pipeline. */
export function resolvePipelineMode(mode: PipelineMode, modelsDir: string): ActivePipeline {
  if (mode !== "auto") return mode;
  return scanModels(modelsDir).whisper.length > 0 ? "live" : "placeholder";
}
