import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { loadWhisperAddon } from "../../src/engines/whisper-addon.js";
import { loadedEngines } from "../../src/engines/status.js";
import { transcribeJfk } from "../helpers/jfk-transcription.js";

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
    const out = await transcribeJfk("generic");
    expect(out.metrics!.speech_seconds).toBeGreaterThan(5);
    expect(loadedEngines().map((e) => e.build)).toEqual(["generic"]);
  }, 120_000);
});
