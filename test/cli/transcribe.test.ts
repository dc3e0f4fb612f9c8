import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, json } from "../helpers/cli.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

// `callreview transcribe` in process: the real engine on jfk.wav with the weightless model (it
// recognises no words, so the structure and the VAD's speech are what can be checked).
const MODEL = fixture("for-tests-ggml-tiny.en.bin");
const VAD = fixture("for-tests-silero-v6.2.0-ggml.bin");
const work = tempDir("callreview-cli-transcribe-");
afterAll(() => work.cleanup());

const env = { CALLREVIEW_MODELS_DIR: path.join(work.dir, "no-models"), CALLREVIEW_DATA_DIR: path.join(work.dir, "data") };

describe("callreview transcribe", () => {
  it("prints JSON with the audio's length, segments and VAD metrics, and touches no data dir", async () => {
    const r = await cli(["transcribe", fixture("jfk.wav"), "--model", MODEL, "--vad-model", VAD, "--format", "json", "--threads", "2"], env);
    expect(r.code, r.stderr).toBe(0);
    const out = json(r.stdout);
    expect(out).toMatchObject({ model: "for-tests-ggml-tiny.en.bin", vad_model: "for-tests-silero-v6.2.0-ggml.bin", language: "en", duration_seconds: 11 });
    expect(Array.isArray(out.segments)).toBe(true);
    expect(out.metrics.duration_seconds).toBe(11);
    expect(out.metrics.speech_seconds).toBeGreaterThan(5);
    expect(out.engine.build).toMatch(/generic|x86-64/);
    expect(fs.existsSync(env.CALLREVIEW_DATA_DIR)).toBe(false);
  }, 120_000);

  it("takes the models from the models dir, and prints text and WebVTT", async () => {
    const models = path.join(work.dir, "models");
    fs.mkdirSync(models);
    fs.symlinkSync(MODEL, path.join(models, path.basename(MODEL)));
    fs.symlinkSync(VAD, path.join(models, path.basename(VAD)));
    const text = await cli(["--models-dir", models, "transcribe", fixture("jfk.wav")], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Transcript \(for-tests-ggml-tiny\.en\.bin, en\)\n {2}talk +\d+\.\d s of speech in 11\.0 s/);
    const vtt = await cli(["--models-dir", models, "transcribe", fixture("jfk.wav"), "--format", "vtt"], env);
    expect(vtt.code, vtt.stderr).toBe(0);
    expect(vtt.stdout.startsWith("WEBVTT")).toBe(true);
  }, 120_000);

  it("a missing audio file or model exits 3, a bad option 2, undecodable audio 1, each with one clear line", async () => {
    // The command's temp files go under os.tmpdir(): point it here to see that failures leave none.
    const tmp = path.join(work.dir, "tmp");
    fs.mkdirSync(tmp);
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const missing = await cli(["transcribe", path.join(work.dir, "nope.wav"), "--model", MODEL], env);
      expect(missing).toMatchObject({ code: 3, stdout: "" });
      expect(missing.stderr).toMatch(/audio file not found: .*nope\.wav/);

      const noModel = await cli(["transcribe", fixture("jfk.wav"), "--model", path.join(work.dir, "ggml-none.bin")], env);
      expect(noModel).toMatchObject({ code: 3, stdout: "" });
      expect(noModel.stderr).toMatch(/whisper model not found: .*ggml-none\.bin/);

      const noModelsDir = await cli(["transcribe", fixture("jfk.wav")], env);
      expect(noModelsDir.code).toBe(3);
      expect(noModelsDir.stderr).toMatch(/no whisper model in .*no-models/);

      const noVad = await cli(["transcribe", fixture("jfk.wav"), "--model", MODEL, "--vad-model", path.join(work.dir, "vad.bin")], env);
      expect(noVad.code).toBe(3);
      expect(noVad.stderr).toMatch(/VAD model not found/);

      const badFormat = await cli(["transcribe", fixture("jfk.wav"), "--model", MODEL, "--format", "docx"], env);
      expect(badFormat.code).toBe(2);
      expect(badFormat.stderr).toMatch(/invalid --format "docx"/);

      const noise = path.join(work.dir, "noise.wav");
      fs.writeFileSync(noise, "RIFF this is not audio at all");
      const bad = await cli(["transcribe", noise, "--model", MODEL], env);
      expect(bad).toMatchObject({ code: 1, stdout: "" });
      expect(bad.stderr).toMatch(/noise\.wav: .*(unsupported_audio|corrupt_audio)/);

      const brokenModel = path.join(work.dir, "ggml-broken.bin");
      fs.writeFileSync(brokenModel, "not a model");
      const broken = await cli(["transcribe", fixture("jfk.wav"), "--model", brokenModel], env);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/ggml-broken\.bin/);
      expect(fs.readdirSync(tmp)).toEqual([]);
    } finally {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
    }
  }, 120_000);
});
