/**
 * A one-hour stereo call through our transcriber: peak memory and progress. The audio is made by
 * concatenating the AMI meeting fixture (60 s) on the left and the same shifted by 30 s on the
 * right, written to a temp WAV (~230 MB). Prints elapsed time, peak RSS (whole process: models,
 * engine buffers, our windows) and the progress values seen.
 * Run: npm run bench:long-call [-- --minutes 60 --threads 2]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readPcm16Window, readWavInfo, wavHeader } from "../../src/audio/wav.js";
import { loadedEngines } from "../../src/engines/status.js";
import { WhisperTranscriber } from "../../src/pipeline/transcribers/whisper.js";
import type { Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";
import { fixture } from "../helpers/fixtures.js";

const argOf = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const MINUTES = Number(argOf("minutes") ?? 60);
const THREADS = Number(argOf("threads") ?? os.availableParallelism());
const rssMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** Writes the WAV a minute at a time, so making the audio does not itself need an hour in memory. */
function writeLongCall(file: string): void {
  const src = fixture("ami", "meeting-4spk.wav");
  const one = readPcm16Window(src, readWavInfo(src), 0, 0, readWavInfo(src).frames);
  const frames = MINUTES * 60 * 16_000;
  const fd = fs.openSync(file, "w");
  fs.writeSync(fd, wavHeader(frames, 2));
  const chunk = 60 * 16_000;
  for (let start = 0; start < frames; start += chunk) {
    const n = Math.min(chunk, frames - start);
    const inter = new Int16Array(n * 2);
    for (let i = 0; i < n; i++) {
      inter[2 * i] = one[(start + i) % one.length];
      inter[2 * i + 1] = one[(start + i + 30 * 16_000) % one.length];
    }
    fs.writeSync(fd, Buffer.from(inter.buffer));
  }
  fs.closeSync(fd);
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "callreview-bench-long-"));
  try {
    const file = path.join(work, "long.wav");
    writeLongCall(file);
    console.log(
      `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), node ${process.version}, ${THREADS} threads, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    console.log(`audio: ${MINUTES} min stereo, ${(fs.statSync(file).size / 2 ** 20).toFixed(0)} MiB WAV; peak RSS before loading models: ${rssMiB()} MiB`);
    const t = new WhisperTranscriber({
      whisperModel: fixture("for-tests-ggml-tiny.en.bin"),
      vadModel: fixture("for-tests-silero-v6.2.0-ggml.bin"),
      threads: THREADS,
      workRoot: path.join(work, "tmp"),
    });
    console.log(`engine: ${JSON.stringify(loadedEngines())}; peak RSS with models loaded: ${rssMiB()} MiB`);
    const seen: Array<[number, number]> = [];
    const t0 = performance.now();
    const out = await t.transcribe({
      call: { id: 1, duration_seconds: MINUTES * 60 } as CallRow,
      company: { id: 1, name: "bench", low_score_threshold: 60, settings: {}, created_at: "", updated_at: "" } as Company,
      audioPath: file,
      audioFormat: "wav",
      onProgress: (p) => seen.push([p, Math.round((performance.now() - t0) / 1000)]),
    });
    const s = (performance.now() - t0) / 1000;
    console.log(`transcribed in ${s.toFixed(1)} s (RTF ${(s / (MINUTES * 60)).toFixed(3)}); speech ${out.metrics?.speech_seconds} s; peak RSS ${rssMiB()} MiB`);
    console.log(`progress (percent@seconds): ${seen.map(([p, at]) => `${p}@${at}`).join(" ")}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
