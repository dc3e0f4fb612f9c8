import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import target from "../../native/whisper-target.json" with { type: "json" };
import { cpuFeatures, missingFeatures } from "../../src/engines/cpu-features.js";
import { BUILD_TIMEOUT_MS, ensureBinary, startServeBinary } from "../helpers/binary.js";
import { fixture, repoRoot } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

const simdExpected =
  fs.existsSync(path.join(repoRoot, "native", "out", target.dir, "index.node")) && missingFeatures(target.features as never[], cpuFeatures()).length === 0;

// The executable copied alone into an empty directory: both addons must be inside it.
const work = tempDir("callreview-engine-build-");
const bin = path.join(work.dir, "alone", "callreview");
const models = path.join(work.dir, "models");

function run(args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CALLREVIEW_"))) as Record<string, string>;
  const r = spawnSync(bin, args, { cwd: path.dirname(bin), env: { ...clean, ...env }, encoding: "utf8", timeout: 300_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  fs.copyFileSync(ensureBinary(), bin);
  fs.chmodSync(bin, 0o755);
  fs.mkdirSync(models);
  fs.symlinkSync(fixture("for-tests-ggml-tiny.en.bin"), path.join(models, "for-tests-ggml-tiny.en.bin"));
  fs.symlinkSync(fixture("for-tests-silero-v6.2.0-ggml.bin"), path.join(models, "for-tests-silero-v6.2.0-ggml.bin"));
}, BUILD_TIMEOUT_MS);
afterAll(() => work.cleanup());

describe("engine build through the executable", () => {
  it("doctor names the build in use: the SIMD one when built and the CPU has it, generic when forced", () => {
    const data = path.join(work.dir, "data-doctor");
    const auto = JSON.parse(run(["--data-dir", data, "doctor", "--json"]).stdout);
    expect(auto.engines[0]).toMatchObject({ engine: "whisper.cpp", build: simdExpected ? "x86-64-v3" : "generic", configured: "auto" });
    expect(auto.cpu).toEqual(cpuFeatures());
    const generic = JSON.parse(run(["--data-dir", data, "doctor", "--json"], { CALLREVIEW_ENGINE_BUILD: "generic" }).stdout);
    expect(generic.engines).toEqual([
      { engine: "whisper.cpp", build: "generic", simd: [], configured: "generic", reason: "engine build set to generic" },
      expect.objectContaining({ engine: "llama.cpp", build: "generic", simd: [], configured: "generic" }),
    ]);
    const bad = run(["--data-dir", data, "doctor"], { CALLREVIEW_ENGINE_BUILD: "fast" });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/CALLREVIEW_ENGINE_BUILD.*"fast".*auto, simd, generic/);
  });

  it("with CALLREVIEW_ENGINE_BUILD=generic the executable still transcribes jfk.wav (VAD finds the speech)", () => {
    const data = path.join(work.dir, "data-generic");
    const base = ["--data-dir", data, "--models-dir", models];
    expect(run([...base, "company", "create", "Acme"]).code).toBe(0);
    const sub = run([...base, "submit", fixture("jfk.wav"), "--company", "1", "--wait", "--json", "--pipeline", "live"], {
      CALLREVIEW_ENGINE_BUILD: "generic",
    });
    expect(sub.code, sub.stderr).toBe(0);
    const shown = JSON.parse(run([...base, "calls", "show", "1", "--transcript", "--json"]).stdout);
    expect(shown.transcript).toMatchObject({ segments: [], model: "for-tests-ggml-tiny.en.bin" });
    expect(shown.transcript.metrics.speech_seconds).toBeGreaterThan(5);
  }, 300_000);

  it("transcribe runs alone (no data dir made) with either build; a missing model or file exits 3", () => {
    const data = path.join(work.dir, "data-transcribe");
    const base = ["--data-dir", data, "--models-dir", models];
    for (const build of ["auto", "generic"]) {
      const r = run([...base, "transcribe", fixture("jfk.wav"), "--format", "json", "--threads", "2"], { CALLREVIEW_ENGINE_BUILD: build });
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ model: "for-tests-ggml-tiny.en.bin", vad_model: "for-tests-silero-v6.2.0-ggml.bin", duration_seconds: 11, segments: [] });
      expect(out.engine.build).toBe(build === "generic" || !simdExpected ? "generic" : "x86-64-v3");
      expect(out.metrics.speech_seconds).toBeGreaterThan(5);
    }
    expect(fs.existsSync(data)).toBe(false);
    const noModel = run([...base, "transcribe", fixture("jfk.wav"), "--model", "ggml-missing.bin"]);
    expect(noModel.code).toBe(3);
    expect(noModel.stderr).toMatch(/whisper model not found: .*ggml-missing\.bin/);
    const noFile = run([...base, "transcribe", path.join(work.dir, "missing.wav")]);
    expect(noFile.code).toBe(3);
    expect(noFile.stderr).toMatch(/audio file not found/);
  }, 300_000);

  it("serve --pipeline live lists the loaded engine in /healthz", async () => {
    const data = path.join(work.dir, "data-serve");
    const srv = await startServeBinary(["--data-dir", data, "--models-dir", models, "--pipeline", "live", "--workers", "0"], { cwd: path.dirname(bin) });
    try {
      const body = (await (await fetch(`${srv.url}/healthz`)).json()) as { engines: Array<{ engine: string; build: string; simd: string[] }> };
      expect(body.engines).toHaveLength(1);
      expect(body.engines[0]).toMatchObject({ engine: "whisper.cpp", build: simdExpected ? "x86-64-v3" : "generic" });
      expect(body.engines[0].simd.length > 0).toBe(simdExpected);
    } finally {
      await srv.stop();
    }
  });
});
