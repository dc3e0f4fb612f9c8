import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openCallAudio } from "../../src/audio/decode.js";
import { readPcm16Window, readWavInfo, writeWav } from "../../src/audio/wav.js";
import { ffmpegEncode, wavSamples, writeStereo } from "../helpers/audio.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";
import { stageReason } from "../helpers/stage-error.js";

const tmp = tempDir("callreview-audio-");
afterAll(() => tmp.cleanup());
const work = (name: string) => path.join(tmp.dir, name);

describe("WAV reader", () => {
  it("reads the jfk fixture header: 16 kHz mono 16-bit, 11 s", () => {
    const info = readWavInfo(fixture("jfk.wav"));
    expect(info).toMatchObject({ format: 1, channels: 1, sampleRate: 16000, bitsPerSample: 16 });
    expect(info.frames / info.sampleRate).toBeCloseTo(11, 0);
  });

  it("splits a stereo file into its channels and reads windows", () => {
    const left = Int16Array.from({ length: 1000 }, (_, i) => i);
    const right = Int16Array.from({ length: 1000 }, (_, i) => -i);
    const file = work("lr.wav");
    writeWav(file, [left, right]);
    const info = readWavInfo(file);
    expect(info.channels).toBe(2);
    expect(Array.from(readPcm16Window(file, info, 0, 10, 3))).toEqual([10, 11, 12]);
    expect(Array.from(readPcm16Window(file, info, 1, 10, 3))).toEqual([-10, -11, -12]);
    expect(Array.from(readPcm16Window(file, info, "mix", 10, 2))).toEqual([0, 0]);
    expect(readPcm16Window(file, info, 0, 990, 100).length).toBe(10);
  });
});

describe("openCallAudio", () => {
  const jfkSeconds = wavSamples(fixture("jfk.wav")).length / 16000;

  it("reads 16 kHz WAV directly, as mono", async () => {
    const a = await openCallAudio(fixture("jfk.wav"), { workDir: work("w1") });
    expect(a.kind).toBe("pcm");
    if (a.kind !== "pcm") return;
    expect(a.via).toBe("wav");
    expect(a.channels).toBe(1);
    expect(a.durationSeconds).toBeCloseTo(jfkSeconds, 2);
  });

  it("keeps a stereo call stereo", async () => {
    const file = work("stereo.wav");
    writeStereo(file, wavSamples(fixture("jfk.wav")), new Int16Array(0));
    const a = await openCallAudio(file, { workDir: work("w2") });
    expect(a.kind === "pcm" && a.channels).toBe(2);
  });

  it.each([
    ["ogg", ["-c:a", "libopus", "-b:a", "24k"]],
    ["m4a", ["-c:a", "aac", "-b:a", "48k"]],
    ["mp3", []],
  ])("converts %s through ffmpeg to 16 kHz PCM", async (ext, codec) => {
    const file = work(`jfk-${ext}.${ext}`);
    if (ext === "mp3") fs.copyFileSync(fixture("jfk.mp3"), file);
    else ffmpegEncode(fixture("jfk.wav"), file, codec as string[]);
    const a = await openCallAudio(file, { workDir: work(`w-${ext}`) });
    expect(a.kind).toBe("pcm");
    if (a.kind !== "pcm") return;
    expect(a.via).toBe("ffmpeg");
    expect(a.info.sampleRate).toBe(16000);
    expect(Math.abs(a.durationSeconds - jfkSeconds)).toBeLessThan(0.2);
    expect(a.read(0, 16000, 16000).some((s) => s !== 0)).toBe(true);
  });

  it("a 44.1 kHz stereo WAV is resampled by ffmpeg and stays stereo", async () => {
    const file = work("cd.wav");
    writeWav(file, [Int16Array.from({ length: 44100 }, (_, i) => Math.round(Math.sin(i / 10) * 8000)), new Int16Array(44100)], 44100);
    const a = await openCallAudio(file, { workDir: work("w-cd") });
    expect(a.kind === "pcm" && a.via).toBe("ffmpeg");
    expect(a.kind === "pcm" && a.channels).toBe(2);
    expect(a.kind === "pcm" && Math.abs(a.durationSeconds - 1)).toBeLessThan(0.01);
  });

  it("a truncated WAV fails with corrupt_audio", async () => {
    const file = work("trunc.wav");
    fs.writeFileSync(file, fs.readFileSync(fixture("jfk.wav")).subarray(0, 100_000));
    expect(await stageReason(openCallAudio(file, { workDir: work("w3") }))).toBe("corrupt_audio");
  });

  it("a zero-length file fails with corrupt_audio", async () => {
    const file = work("empty.wav");
    fs.writeFileSync(file, "");
    expect(await stageReason(openCallAudio(file, { workDir: work("w4") }))).toBe("corrupt_audio");
  });

  it("a renamed text file fails with unsupported_audio", async () => {
    const file = work("notes.mp3");
    fs.writeFileSync(file, "this is a meeting note, not a recording\n".repeat(20));
    expect(await stageReason(openCallAudio(file, { workDir: work("w5") }))).toBe("unsupported_audio");
  });

  it("an OGG header with garbage after it fails with corrupt_audio (ffmpeg cannot decode it)", async () => {
    const file = work("bad.ogg");
    fs.writeFileSync(file, Buffer.concat([Buffer.from("OggS"), Buffer.alloc(5000, 7)]));
    expect(await stageReason(openCallAudio(file, { workDir: work("w6") }))).toBe("corrupt_audio");
  });
});
