import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, json } from "../helpers/cli.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

const tmp = tempDir("callreview-models-");
const dataDir = path.join(tmp.dir, "data");
const good = path.join(tmp.dir, "good");
const mixed = path.join(tmp.dir, "mixed");
const args = (modelsDir: string, ...rest: string[]) => ["--data-dir", dataDir, "--models-dir", modelsDir, ...rest];

beforeAll(() => {
  fs.mkdirSync(good);
  fs.mkdirSync(mixed);
  fs.copyFileSync(fixture("for-tests-ggml-tiny.en.bin"), path.join(good, "for-tests-ggml-tiny.en.bin"));
  fs.copyFileSync(fixture("for-tests-silero-v6.2.0-ggml.bin"), path.join(good, "for-tests-silero-v6.2.0-ggml.bin"));
  // mixed: a good whisper file, a truncated VAD file, a file the manifest does not know, a known file without a checksum.
  fs.copyFileSync(fixture("for-tests-ggml-tiny.en.bin"), path.join(mixed, "for-tests-ggml-tiny.en.bin"));
  fs.writeFileSync(path.join(mixed, "for-tests-silero-v6.2.0-ggml.bin"), fs.readFileSync(fixture("for-tests-silero-v6.2.0-ggml.bin")).subarray(0, 400_000));
  fs.copyFileSync(fixture("for-tests-ggml-tiny.en.bin"), path.join(mixed, "ggml-custom-finetune.bin"));
  fs.copyFileSync(fixture("stories260K.gguf"), path.join(mixed, "qwen2.5-3b-instruct-q4_k_m.gguf"));
  fs.writeFileSync(path.join(mixed, "README.txt"), "not a model");
});
afterAll(() => tmp.cleanup());

describe("models list / verify", () => {
  it("list shows kind, size and checksum match, and what is not installed", async () => {
    const r = await cli(args(mixed, "models", "list"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/OK\s+whisper\s+573\.1 KiB|OK\s+whisper\s+586836 B/);
    expect(r.stdout).toMatch(/BAD\s+vad\s+400000 B\s+for-tests-silero-v6\.2\.0-ggml\.bin/);
    expect(r.stdout).toMatch(/UNKNOWN\s+whisper .*ggml-custom-finetune\.bin\s+not in the manifest/);
    expect(r.stdout).toMatch(/NO_CHECKSUM\s+gguf .*qwen2\.5-3b-instruct-q4_k_m\.gguf\s+no checksum in manifest/);
    expect(r.stdout).toContain("not installed");
    expect(r.stdout).toContain("ggml-small.en.bin");
    expect(r.stdout).not.toContain("README.txt");
    const j = json((await cli(args(mixed, "models", "list", "--json"))).stdout);
    const byName = Object.fromEntries(j.files.map((f: { name: string; status: string }) => [f.name, f.status]));
    expect(byName).toEqual({
      "for-tests-ggml-tiny.en.bin": "ok",
      "for-tests-silero-v6.2.0-ggml.bin": "bad",
      "ggml-custom-finetune.bin": "unknown",
      "qwen2.5-3b-instruct-q4_k_m.gguf": "no_checksum",
    });
  });

  it("verify exits 0 on good files", async () => {
    const r = await cli(args(good, "models", "verify"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/OK .*for-tests-ggml-tiny\.en\.bin \[test only\]\s+sha256 matches/);
  });

  it("verify names the bad file and exits non-zero", async () => {
    const r = await cli(args(mixed, "models", "verify"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(path.join(mixed, "for-tests-silero-v6.2.0-ggml.bin"));
    expect(r.stderr).toContain("size 400000 bytes, manifest says 885098");
    expect(r.stderr).not.toContain("ggml-custom-finetune.bin");
  });

  it("verify on a file that is not a model names it", async () => {
    const dir = path.join(tmp.dir, "junk");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "ggml-base.en.bin"), "<html>rate limited</html>");
    const r = await cli(args(dir, "models", "verify", "--json"));
    expect(r.code).toBe(1);
    expect(json(r.stdout).ok).toBe(false);
    expect(r.stderr).toMatch(/ggml-base\.en\.bin \(not a ggml model file/);
  });
});

describe("doctor", () => {
  it("shows the transcription and VAD models serve will use", async () => {
    const r = await cli(args(good, "doctor", "--json"));
    expect(r.code).toBe(0);
    const j = json(r.stdout);
    expect(j.pipeline.active).toBe("live");
    expect(j.transcription.whisper_model).toBe(path.join(good, "for-tests-ggml-tiny.en.bin"));
    expect(j.transcription.vad_model).toBe(path.join(good, "for-tests-silero-v6.2.0-ggml.bin"));
    expect(j.transcription.whisper_problem).toBeNull();
    expect(j.transcription.ffmpeg.path).toBeTruthy();
    const text = await cli(args(good, "doctor"));
    expect(text.stdout).toMatch(/transcription .*for-tests-ggml-tiny\.en\.bin/);
  });

  it("names a truncated VAD model", async () => {
    const j = json((await cli(args(mixed, "doctor", "--json"))).stdout);
    // Any real model (even one the manifest does not know) ranks before a test-only file.
    expect(j.transcription.whisper_model).toBe(path.join(mixed, "ggml-custom-finetune.bin"));
    expect(j.transcription.vad_problem).toMatch(/400000 bytes, manifest says 885098/);
  });

  it("no models: auto means placeholder", async () => {
    const dir = path.join(tmp.dir, "empty");
    fs.mkdirSync(dir);
    const j = json((await cli(args(dir, "doctor", "--json"))).stdout);
    expect(j.pipeline.active).toBe("placeholder");
    expect(j.transcription.whisper_model).toBeNull();
  });
});

describe("doctor and --audio-dir", () => {
  it("shows the audio dir (default <data dir>/audio, or --audio-dir / CALLREVIEW_AUDIO_DIR)", async () => {
    const empty = path.join(tmp.dir, "empty-for-audio");
    fs.mkdirSync(empty, { recursive: true });
    expect(json((await cli(args(empty, "doctor", "--json"))).stdout).audio_dir).toBe(path.join(dataDir, "audio"));
    const shared = path.join(tmp.dir, "shared-audio");
    const r = await cli(["--audio-dir", shared, ...args(empty, "doctor")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`audio dir     ${shared} (writable)`);
    expect(fs.statSync(shared).isDirectory()).toBe(true);
  });

  it("an audio dir that cannot be created fails the command (exit 1, as a data dir would) naming it", async () => {
    const blocker = path.join(tmp.dir, "a-file");
    fs.writeFileSync(blocker, "x");
    const r = await cli(["--audio-dir", path.join(blocker, "audio"), ...args(good, "doctor")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^callreview: audio dir .*a-file\/audio is not writable \(ENOTDIR\)/);
  });
});
