import { MANIFEST } from "../src/models/manifest.js";

/** The findings of `doctor` that a next step depends on. */
export interface DoctorFindings {
  models_dir: { path: string };
  pipeline: { active: string };
  transcription: { whisper_model: string | null; whisper_problem: string | null; vad_model: string | null; vad_problem: string | null; ffmpeg: unknown };
  engines: Array<{ engine: string; build: string | null; reason: string }>;
  analyzer: { active: string; configured: string; reason: string; ollama: { ok: boolean; url: string; model: string; detail: string } | null };
}

const recommended = (kind: "whisper" | "vad" | "gguf") => MANIFEST.find((m) => m.kind === kind && !m.test_only)?.file;

/**
 * What to do about each finding, in the order that matters: models are never
 * downloaded at run time, so each step says which file goes where.
 */
export function nextSteps(f: DoctorFindings): string[] {
  const steps: string[] = [];
  const dir = f.models_dir.path;
  const t = f.transcription;
  if (!t.whisper_model) {
    steps.push(
      `No whisper model: reports are placeholders. Copy ${recommended("whisper") ?? "a ggml whisper model"} into ${dir} (models/README.md says where to get it), then check with: callreview models verify`,
    );
  } else if (t.whisper_problem) {
    steps.push(`Replace ${t.whisper_model} (${t.whisper_problem}) with a good copy, then check with: callreview models verify`);
  }
  if (t.whisper_model && !t.vad_model)
    steps.push(`No VAD model (no talk metrics, no silence trimming): copy ${recommended("vad") ?? "the Silero VAD model"} into ${dir}`);
  else if (t.vad_problem) steps.push(`Replace ${t.vad_model} (${t.vad_problem}) with a good copy, then check with: callreview models verify`);
  if (!t.ffmpeg)
    steps.push("No ffmpeg: OGG/Opus, M4A/MP4 and WebM cannot be transcribed. Install ffmpeg (Debian: apt-get install ffmpeg) or pass --ffmpeg-path");
  for (const e of f.engines) {
    if (e.build === null)
      steps.push(`The ${e.engine} engine does not load (${e.reason}): install libstdc++ and libgomp (Debian: apt-get install libstdc++6 libgomp1)`);
    else if (e.build === "generic")
      steps.push(
        `The ${e.engine} engine is the slow generic build: install cmake and g++ (Debian: apt-get install cmake g++), then run npm run build:native (or npm install again) and rebuild the executable with npm run build`,
      );
  }
  const a = f.analyzer;
  if (a.ollama && !a.ollama.ok) steps.push(`Ollama is not usable (${a.ollama.detail}): start it at ${a.ollama.url} and run: ollama pull ${a.ollama.model}`);
  if (a.configured === "llama" && a.reason !== "configured")
    steps.push(`The llama analyzer is ${a.reason}: pass --llm-model <file.gguf> or copy a GGUF into ${dir}`);
  if (a.active === "rules" && a.configured === "auto")
    steps.push(
      `Analysis uses the rules analyzer. For LLM analysis copy a GGUF (e.g. ${recommended("gguf") ?? "a small instruct model"}) into ${dir}, or pass --ollama-model <name>`,
    );
  if (steps.length === 0) steps.push("Nothing to do: run callreview serve");
  return steps;
}
