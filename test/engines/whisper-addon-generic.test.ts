import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { loadWhisperAddon } from "../../src/engines/whisper-addon.js";
import { loadedEngines } from "../../src/engines/status.js";
import { WhisperTranscriber } from "../../src/pipeline/transcribers/whisper.js";
import type { Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

// Its own process (vitest pool: forks): the first load decides the build for the process.
describe("engine build generic: the prebuilt fallback", () => {
  it("loads the prebuilt @fugood addon, not the SIMD one, whatever the CPU", () => {
    const { status } = loadWhisperAddon("generic");
    expect(status).toEqual({ engine: "whisper.cpp", build: "generic", simd: [], configured: "generic", reason: "engine build set to generic" });
    const mapped = fs.readFileSync("/proc/self/maps", "utf8");
    expect(mapped).toMatch(/node-whisper-linux-x64\/index\.node/);
    expect(mapped).not.toMatch(/native\/out\/whisper-x86-64-v3\/index\.node/);
    // Later callers get the same addon: one build per process.
    expect(loadWhisperAddon("auto").status.build).toBe("generic");
  });

  it("transcribes jfk.wav with it", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const t = new WhisperTranscriber({
        whisperModel: fixture("for-tests-ggml-tiny.en.bin"),
        vadModel: fixture("for-tests-silero-v6.2.0-ggml.bin"),
        threads: 2,
        workRoot: dir,
        engineBuild: "generic",
      });
      const call = { id: 1, duration_seconds: 11 } as CallRow;
      const company = { id: 1, name: "x", low_score_threshold: 60, settings: {}, created_at: "", updated_at: "" } as Company;
      const out = await t.transcribe({ call, company, audioPath: fixture("jfk.wav"), audioFormat: "wav" });
      expect(out.metrics!.speech_seconds).toBeGreaterThan(5);
      expect(loadedEngines().map((e) => e.build)).toEqual(["generic"]);
    } finally {
      cleanup();
    }
  }, 120_000);
});
