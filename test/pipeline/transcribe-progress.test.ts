import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readPcm16Window, readWavInfo, writeWav } from "../../src/audio/wav.js";
import { WhisperTranscriber } from "../../src/pipeline/transcribers/whisper.js";
import type { Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

const tmp = tempDir("callreview-progress-");
afterAll(() => tmp.cleanup());

/** A stereo call of `minutes`: the AMI meeting repeated on the left, shifted by 30 s on the right. */
function stereoCall(minutes: number): string {
  const src = fixture("ami", "meeting-4spk.wav");
  const one = readPcm16Window(src, readWavInfo(src), 0, 0, readWavInfo(src).frames);
  const frames = minutes * 60 * 16_000;
  const left = new Int16Array(frames);
  const right = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = one[i % one.length];
    right[i] = one[(i + 30 * 16_000) % one.length];
  }
  const file = path.join(tmp.dir, `call-${minutes}min.wav`);
  writeWav(file, [left, right]);
  return file;
}

describe("transcription progress", () => {
  it("a stereo call reports VAD then transcription progress, rising step by step to 100", async () => {
    const file = stereoCall(3);
    const t = new WhisperTranscriber({
      whisperModel: fixture("for-tests-ggml-tiny.en.bin"),
      vadModel: fixture("for-tests-silero-v6.2.0-ggml.bin"),
      threads: 2,
      workRoot: path.join(tmp.dir, "work"),
    });
    const call = { id: 3, duration_seconds: 180 } as CallRow;
    const company = { id: 1, name: "x", low_score_threshold: 60, settings: {}, created_at: "", updated_at: "" } as Company;
    const seen: number[] = [];
    const out = await t.transcribe({ call, company, audioPath: file, audioFormat: "wav", onProgress: (p) => seen.push(p) });
    expect(out.metrics!.duration_seconds).toBe(180);
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(100);
    // Strictly rising whole percents.
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
    // VAD owns the first 10 %...
    expect(seen).toContain(10);
    // ...then the engine's own callback (per 30-s window, 12 of them across both channels) moves
    // the bar within and between batches: many steps, not a jump to 100.
    const transcribing = seen.filter((p) => p > 10 && p < 100);
    expect(transcribing.length).toBeGreaterThanOrEqual(6);
    expect(fs.readdirSync(path.join(tmp.dir, "work"))).toEqual([]);
  }, 300_000);
});
