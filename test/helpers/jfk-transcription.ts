import type { EngineBuild } from "../../src/config.js";
import type { Transcript } from "../../src/pipeline/ports.js";
import { WhisperTranscriber } from "../../src/pipeline/transcribers/whisper.js";
import type { Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";
import { fixture } from "./fixtures.js";
import { tempDir } from "./services.js";

/** jfk.wav through the pipeline's own transcriber with the weightless test model and Silero VAD, 2 threads. */
export async function transcribeJfk(engineBuild?: EngineBuild): Promise<Transcript> {
  const { dir, cleanup } = tempDir();
  try {
    const t = new WhisperTranscriber({
      whisperModel: fixture("for-tests-ggml-tiny.en.bin"),
      vadModel: fixture("for-tests-silero-v6.2.0-ggml.bin"),
      threads: 2,
      workRoot: dir,
      ...(engineBuild ? { engineBuild } : {}),
    });
    const call = { id: 1, duration_seconds: 11 } as CallRow;
    const company = { id: 1, name: "x", low_score_threshold: 60, settings: {}, created_at: "", updated_at: "" } as Company;
    return await t.transcribe({ call, company, audioPath: fixture("jfk.wav"), audioFormat: "wav" });
  } finally {
    cleanup();
  }
}
