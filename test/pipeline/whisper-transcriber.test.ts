import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { openWhisperTranscriber, type WhisperTranscriber } from "../../src/pipeline/transcribers/whisper.js";
import type { Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";
import { ffmpegEncode, wavSamples, writeStereo } from "../helpers/audio.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";
import { stageReason } from "../helpers/stage-error.js";

const tmp = tempDir("callreview-whisper-");
const modelsDir = path.join(tmp.dir, "models");
const dataDir = path.join(tmp.dir, "data");
const file = (name: string) => path.join(tmp.dir, name);
let transcriber: WhisperTranscriber;

const call = { id: 7, duration_seconds: null } as CallRow;
const company = (rep_channel?: "left" | "right"): Company => ({
  id: 1,
  name: "Acme",
  low_score_threshold: 60,
  settings: rep_channel ? { rep_channel } : {},
  created_at: "",
  updated_at: "",
});

beforeAll(() => {
  fs.mkdirSync(modelsDir, { recursive: true });
  fs.symlinkSync(fixture("for-tests-ggml-tiny.en.bin"), path.join(modelsDir, "for-tests-ggml-tiny.en.bin"));
  fs.symlinkSync(fixture("for-tests-silero-v6.2.0-ggml.bin"), path.join(modelsDir, "for-tests-silero-v6.2.0-ggml.bin"));
  transcriber = openWhisperTranscriber({ modelsDir, dataDir, whisperModel: undefined, whisperThreads: 2, ffmpegPath: undefined });
});
afterAll(() => tmp.cleanup());

/** Reference span of speech from the samples themselves: first to last 20 ms frame louder than 10 % of the loudest. */
function energySpan(samples: Int16Array): { start: number; end: number } {
  const frame = 320;
  const rms: number[] = [];
  for (let i = 0; i + frame <= samples.length; i += frame) {
    let sum = 0;
    for (let j = i; j < i + frame; j++) sum += samples[j] * samples[j];
    rms.push(Math.sqrt(sum / frame));
  }
  const threshold = Math.max(...rms) * 0.1;
  const first = rms.findIndex((r) => r > threshold);
  const last = rms.length - 1 - [...rms].reverse().findIndex((r) => r > threshold);
  return { start: (first * frame) / 16000, end: ((last + 1) * frame) / 16000 };
}

function rttmUnionSeconds(text: string): number {
  const spans = text
    .trim()
    .split("\n")
    .map((l) => l.split(/\s+/))
    .map((f) => ({ start: Number(f[3]), end: Number(f[3]) + Number(f[4]) }))
    .sort((a, b) => a.start - b.start);
  let total = 0;
  let cur: { start: number; end: number } | undefined;
  for (const s of spans) {
    if (cur && s.start <= cur.end) cur.end = Math.max(cur.end, s.end);
    else {
      if (cur) total += cur.end - cur.start;
      cur = { ...s };
    }
  }
  return total + (cur ? cur.end - cur.start : 0);
}

describe("whisper transcriber on the real engine", () => {
  it("jfk.wav: the weightless model yields an empty transcript, mono metrics, progress to 100", async () => {
    const progress: number[] = [];
    const t = await transcriber.transcribe({
      call,
      company: company(),
      audioPath: fixture("jfk.wav"),
      audioFormat: "wav",
      onProgress: (p) => progress.push(p),
    });
    expect(t.segments).toEqual([]);
    expect(t.model).toBe("for-tests-ggml-tiny.en.bin");
    expect(t.language).toBe("en");
    expect(t.metrics?.duration_seconds).toBeCloseTo(11, 0);
    expect(t.metrics?.speech_seconds).toBeGreaterThan(5);
    expect(t.metrics?.talk_ratio).toBeNull();
    expect(t.metrics?.rep_talk_seconds).toBeNull();
    expect(progress[0]).toBe(0);
    expect(progress[progress.length - 1]).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(fs.readdirSync(path.join(dataDir, "tmp", "transcribe"))).toEqual([]);
  });

  it("jfk.mp3 goes through ffmpeg and the engine: empty transcript, no crash", async () => {
    const t = await transcriber.transcribe({ call, company: company(), audioPath: fixture("jfk.mp3"), audioFormat: "mp3" });
    expect(t.segments).toEqual([]);
    expect(t.metrics?.duration_seconds).toBeCloseTo(11, 0);
    expect(fs.readdirSync(path.join(dataDir, "tmp", "transcribe"))).toEqual([]);
  });

  it("Silero VAD on jfk: the detected speech span is within 15 % of the spoken span", async () => {
    const ref = energySpan(wavSamples(fixture("jfk.wav")));
    const { metrics } = await transcriber.measureTalk({ call, company: company(), audioPath: fixture("jfk.wav") });
    // Silence share says how much of the call is outside speech; the span is what VAD found from first to last word.
    const spans = await (transcriber as unknown as { vad: { detect(p: Int16Array): Promise<Array<{ start: number; end: number }>> } }).vad.detect(
      wavSamples(fixture("jfk.wav")),
    );
    const detected = spans[spans.length - 1].end - spans[0].start;
    expect(Math.abs(detected - (ref.end - ref.start)) / (ref.end - ref.start)).toBeLessThan(0.15);
    expect(metrics.speech_seconds).toBeLessThanOrEqual(detected + 0.01);
  });

  it("Silero VAD on the AMI meeting: speech time within 15 % of the union of the reference segments", async () => {
    const ref = rttmUnionSeconds(fs.readFileSync(fixture("ami", "meeting-4spk.rttm"), "utf8"));
    const { metrics } = await transcriber.measureTalk({ call, company: company(), audioPath: fixture("ami", "meeting-4spk.wav") });
    expect(Math.abs(metrics.speech_seconds - ref) / ref).toBeLessThan(0.15);
  });

  describe("stereo calls", () => {
    let jfkSpeech = 0;
    const leftJfk = file("left-jfk.wav");
    const rightJfk = file("right-jfk.wav");
    beforeAll(async () => {
      const jfk = wavSamples(fixture("jfk.wav"));
      writeStereo(leftJfk, jfk, new Int16Array(jfk.length));
      writeStereo(rightJfk, new Int16Array(jfk.length), jfk);
      jfkSpeech = (await transcriber.measureTalk({ call, company: company(), audioPath: fixture("jfk.wav") })).metrics.speech_seconds;
    });

    it("jfk on the left, silence on the right: the rep talks, the customer does not", async () => {
      const { metrics, speakers } = await transcriber.measureTalk({ call, company: company(), audioPath: leftJfk });
      expect(speakers).toEqual(["rep", "customer"]);
      expect(metrics.rep_talk_seconds).toBeCloseTo(jfkSpeech, 0);
      expect(metrics.customer_talk_seconds).toBe(0);
      expect(metrics.talk_ratio).toBe(1);
      expect(metrics.overlap_seconds).toBe(0);
      expect(metrics.turns).toBe(0);
      expect(metrics.longest_monologue_rep_seconds).toBeGreaterThan(5);
    });

    it("swapped channels flip it", async () => {
      const { metrics } = await transcriber.measureTalk({ call, company: company(), audioPath: rightJfk });
      expect(metrics.rep_talk_seconds).toBe(0);
      expect(metrics.customer_talk_seconds).toBeCloseTo(jfkSpeech, 0);
      expect(metrics.talk_ratio).toBe(0);
    });

    it("a full transcription of a stereo call runs both channels and keeps the speaker metrics", async () => {
      const progress: number[] = [];
      const t = await transcriber.transcribe({ call, company: company(), audioPath: leftJfk, audioFormat: "wav", onProgress: (p) => progress.push(p) });
      // The weightless model recognises nothing: no invented segments, but the talk metrics are real.
      expect(t.segments).toEqual([]);
      expect(t.metrics?.rep_talk_seconds).toBeCloseTo(jfkSpeech, 0);
      expect(t.metrics?.customer_talk_seconds).toBe(0);
      expect(t.metrics?.talk_ratio).toBe(1);
      expect(progress.at(-1)).toBe(100);
    });

    it("the company's rep_channel setting flips it back", async () => {
      const { metrics } = await transcriber.measureTalk({ call, company: company("right"), audioPath: rightJfk });
      expect(metrics.rep_talk_seconds).toBeCloseTo(jfkSpeech, 0);
      expect(metrics.talk_ratio).toBe(1);
    });
  });

  it.each([
    ["ogg", ["-c:a", "libopus", "-b:a", "24k"]],
    ["m4a", ["-c:a", "aac", "-b:a", "48k"]],
  ])("%s made from jfk is converted and measured like the WAV", async (ext, codec) => {
    const out = file(`jfk.${ext}`);
    ffmpegEncode(fixture("jfk.wav"), out, codec as string[]);
    const wav = await transcriber.measureTalk({ call, company: company(), audioPath: fixture("jfk.wav") });
    const { metrics } = await transcriber.measureTalk({ call, company: company(), audioPath: out });
    expect(Math.abs(metrics.speech_seconds - wav.metrics.speech_seconds) / wav.metrics.speech_seconds).toBeLessThan(0.15);
  });

  it("bad files fail the call with a reason and the process keeps working", async () => {
    const truncated = file("truncated.wav");
    fs.writeFileSync(truncated, fs.readFileSync(fixture("jfk.wav")).subarray(0, 50_000));
    const empty = file("empty.wav");
    fs.writeFileSync(empty, "");
    const text = file("minutes.wav");
    fs.writeFileSync(text, "Minutes of the meeting\n".repeat(50));
    const input = (audioPath: string) => ({ call, company: company(), audioPath, audioFormat: "wav" });
    expect(await stageReason(transcriber.transcribe(input(truncated)))).toBe("corrupt_audio");
    expect(await stageReason(transcriber.transcribe(input(empty)))).toBe("corrupt_audio");
    expect(await stageReason(transcriber.transcribe(input(text)))).toBe("unsupported_audio");
    const after = await transcriber.measureTalk({ call, company: company(), audioPath: fixture("jfk.wav") });
    expect(after.metrics.speech_seconds).toBeGreaterThan(5);
    expect(fs.readdirSync(path.join(dataDir, "tmp", "transcribe"))).toEqual([]);
  });
});

describe("opening the transcriber (what serve --pipeline live does at start)", () => {
  const open = (dir: string) => () => openWhisperTranscriber({ modelsDir: dir, dataDir, whisperModel: undefined, whisperThreads: 1, ffmpegPath: undefined });

  it("refuses an empty models dir, naming it", () => {
    const dir = file("no-models");
    fs.mkdirSync(dir);
    expect(open(dir)).toThrowError(AppError);
    expect(open(dir)).toThrowError(new RegExp(`no whisper model in ${dir}`));
  });

  it("refuses a truncated whisper model, naming the file", () => {
    const dir = file("truncated-models");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "for-tests-ggml-tiny.en.bin"), fs.readFileSync(fixture("for-tests-ggml-tiny.en.bin")).subarray(0, 300_000));
    expect(open(dir)).toThrowError(/for-tests-ggml-tiny\.en\.bin is 300000 bytes, the manifest says 586836/);
  });

  it("refuses a file that is not a ggml model, naming it", () => {
    const dir = file("junk-models");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "ggml-base.en.bin"), "<html>404 Not Found</html>");
    expect(open(dir)).toThrowError(/ggml-base\.en\.bin is unusable: not a ggml model file/);
  });

  it("refuses a broken VAD model, naming it", () => {
    const dir = file("bad-vad");
    fs.mkdirSync(dir);
    fs.symlinkSync(fixture("for-tests-ggml-tiny.en.bin"), path.join(dir, "for-tests-ggml-tiny.en.bin"));
    fs.writeFileSync(path.join(dir, "ggml-silero-v6.2.0.bin"), fs.readFileSync(fixture("for-tests-silero-v6.2.0-ggml.bin")).subarray(0, 400_000));
    expect(open(dir)).toThrowError(/VAD model .*ggml-silero-v6\.2\.0\.bin could not be loaded/);
  });
});
