import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cpuFeatures, missingFeatures } from "../../src/engines/cpu-features.js";
import { loadWhisperAddon } from "../../src/engines/whisper-addon.js";
import { loadedEngines } from "../../src/engines/status.js";
import target from "../../native/whisper-target.json" with { type: "json" };
import { repoRoot } from "../helpers/fixtures.js";
import { transcribeJfk } from "../helpers/jfk-transcription.js";

// Each test file runs in its own process (vitest pool: forks), so this one decides the process's build.
const simdAddon = path.join(repoRoot, "native", "out", target.dir, "index.node");
const runnable = fs.existsSync(simdAddon) && missingFeatures(target.features as never[], cpuFeatures()).length === 0;

/** The shared objects mapped into this process: which index.node really got loaded. */
function mappedAddons(): string[] {
  return [
    ...new Set(
      fs
        .readFileSync("/proc/self/maps", "utf8")
        .split("\n")
        .map((l) => l.split(/\s+/).slice(5).join(" "))
        .filter((p) => p.endsWith("index.node")),
    ),
  ];
}

describe.skipIf(!runnable)("the SIMD whisper addon (built by native/build.mjs)", () => {
  it("auto loads the x86-64-v3 build on this CPU, and it is the file mapped into the process", () => {
    const { status } = loadWhisperAddon("auto");
    expect(status).toMatchObject({ engine: "whisper.cpp", build: "x86-64-v3", simd: ["avx", "avx2", "fma", "f16c", "bmi2"], configured: "auto" });
    const mapped = mappedAddons();
    expect(mapped).toContain(fs.realpathSync(simdAddon));
    expect(mapped.some((p) => p.includes("node-whisper-linux-x64"))).toBe(false);
    expect(loadedEngines()).toEqual([status]);
  });

  it("contains AVX2/FMA code (the generic prebuilt has none)", () => {
    // binutils comes with the g++ that built the addon.
    const asm = spawnSync("objdump", ["-d", "--no-show-raw-insn", simdAddon], { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 }).stdout;
    expect((asm.match(/\tvfmadd/g) ?? []).length).toBeGreaterThan(100);
    expect((asm.match(/%ymm/g) ?? []).length).toBeGreaterThan(1000);
  });

  it("transcribes jfk.wav through our transcriber with it (weightless model: no words, VAD finds speech)", async () => {
    const out = await transcribeJfk();
    expect(out.segments).toEqual([]);
    expect(out.metrics!.speech_seconds).toBeGreaterThan(5);
    expect(loadedEngines()[0].build).toBe("x86-64-v3");
  });
});

describe.skipIf(runnable)("without the SIMD addon", () => {
  it("auto falls back to the generic build and says why", () => {
    const { status } = loadWhisperAddon("auto");
    expect(status.build).toBe("generic");
    expect(status.reason).toMatch(/lacks|did not load/);
  });
});
