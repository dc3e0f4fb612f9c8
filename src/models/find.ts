import fs from "node:fs";
import path from "node:path";
import { preferenceRank } from "./manifest.js";

/** What the models dir holds, by kind. Whisper ggml files are `ggml-*.bin` other than VAD ones. */
export interface InstalledModels {
  whisper: string[];
  vad: string[];
  gguf: string[];
}

export type ModelKind = keyof InstalledModels;

export function modelKindOf(name: string): ModelKind | undefined {
  if (name.endsWith(".gguf")) return "gguf";
  if (!name.endsWith(".bin")) return undefined;
  if (/silero|vad/i.test(name)) return "vad";
  return /ggml/i.test(name) ? "whisper" : undefined;
}

/** Each list is ordered by preference (see preferenceRank): the first entry is what `serve` uses. */
export function scanModels(modelsDir: string): InstalledModels {
  let names: string[] = [];
  try {
    names = fs.readdirSync(modelsDir).filter((n) => fs.statSync(path.join(modelsDir, n)).isFile());
  } catch {
    names = [];
  }
  names.sort((a, b) => preferenceRank(a) - preferenceRank(b) || a.localeCompare(b));
  const of = (kind: ModelKind) => names.filter((n) => modelKindOf(n) === kind).map((n) => path.join(modelsDir, n));
  return { whisper: of("whisper"), vad: of("vad"), gguf: of("gguf") };
}

/** A model named by flag: a path, or a file name inside the models dir. */
export function resolveModelPath(modelsDir: string, nameOrPath: string): string {
  return nameOrPath.includes("/") || nameOrPath.includes(path.sep) ? path.resolve(nameOrPath) : path.join(modelsDir, nameOrPath);
}

/** The transcription and VAD model files `serve` would use (they may still turn out unreadable). */
export function selectTranscriptionModels(cfg: { modelsDir: string; whisperModel?: string }): { whisper: string | null; vad: string | null } {
  const installed = scanModels(cfg.modelsDir);
  return {
    whisper: cfg.whisperModel ? resolveModelPath(cfg.modelsDir, cfg.whisperModel) : (installed.whisper[0] ?? null),
    vad: installed.vad[0] ?? null,
  };
}
