import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBinary, startServeBinary } from "../helpers/binary.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

describe("live transcription through the executable (whisper addon embedded)", () => {
  it("submit --wait takes a call through transcribing to analyzing with a stored transcript; calls show --transcript reads it", () => {
    const { dir, cleanup } = tempDir();
    try {
      const models = path.join(dir, "models");
      fs.mkdirSync(models);
      fs.symlinkSync(fixture("for-tests-ggml-tiny.en.bin"), path.join(models, "for-tests-ggml-tiny.en.bin"));
      fs.symlinkSync(fixture("for-tests-silero-v6.2.0-ggml.bin"), path.join(models, "for-tests-silero-v6.2.0-ggml.bin"));
      const base = ["--data-dir", dir, "--models-dir", models];
      expect(runBinary([...base, "company", "create", "Acme"]).code).toBe(0);
      const sub = runBinary([...base, "submit", fixture("jfk.wav"), "--company", "1", "--wait", "--json", "--pipeline", "live"]);
      expect(sub.stderr).not.toMatch(/unknown option/);
      const shown = JSON.parse(runBinary([...base, "calls", "show", "1", "--transcript", "--json"]).stdout);
      expect(shown.history.map((h: { to: string }) => h.to).slice(0, 3)).toEqual(["queued", "transcribing", "analyzing"]);
      expect(shown.transcript).toMatchObject({ segments: [], model: "for-tests-ggml-tiny.en.bin", language: "en" });
      expect(shown.transcript.metrics.speech_seconds).toBeGreaterThan(5);
    } finally {
      cleanup();
    }
  }, 300_000);

  it("serve --pipeline live refuses a truncated model, naming the file", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const models = path.join(dir, "models");
      fs.mkdirSync(models);
      fs.writeFileSync(path.join(models, "for-tests-ggml-tiny.en.bin"), fs.readFileSync(fixture("for-tests-ggml-tiny.en.bin")).subarray(0, 300_000));
      await expect(startServeBinary(["--data-dir", dir, "--models-dir", models, "--pipeline", "live"])).rejects.toThrow(
        /for-tests-ggml-tiny\.en\.bin is 300000 bytes/,
      );
    } finally {
      cleanup();
    }
  });
});
