import fs from "node:fs";
import type { PipelineMode } from "../config.js";
import { selectTranscriptionModels } from "../models/find.js";

export type ActivePipeline = "placeholder" | "live";

/** `auto` runs live only when a whisper model is installed (the file exists); otherwise the placeholder pipeline. */
export function resolvePipelineMode(mode: PipelineMode, modelsDir: string, whisperModel?: string): ActivePipeline {
  if (mode !== "auto") return mode;
  const { whisper } = selectTranscriptionModels({ modelsDir, whisperModel });
  return whisper !== null && fs.existsSync(whisper) ? "live" : "placeholder";
}
