import fs from "node:fs";
import path from "node:path";

/** What the models dir holds, by kind. Whisper ggml files are `ggml-*.bin` other than VAD ones. */
export interface InstalledModels {
  whisper: string[];
  vad: string[];
  gguf: string[];
}

export function scanModels(modelsDir: string): InstalledModels {
  let names: string[] = [];
  try {
    names = fs.readdirSync(modelsDir).filter((n) => fs.statSync(path.join(modelsDir, n)).isFile());
  } catch {
    names = [];
  }
  names.sort();
  const isVad = (n: string) => /silero|vad/i.test(n) && n.endsWith(".bin");
  return {
    whisper: names.filter((n) => n.endsWith(".bin") && !isVad(n) && /ggml/i.test(n)).map((n) => path.join(modelsDir, n)),
    vad: names.filter(isVad).map((n) => path.join(modelsDir, n)),
    gguf: names.filter((n) => n.endsWith(".gguf")).map((n) => path.join(modelsDir, n)),
  };
}
