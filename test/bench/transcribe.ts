/**
 * Transcription benchmark on the real engine. Builds N minutes of audio (the AMI
 * meeting fixture repeated), then for each whisper model in the models dir:
 *   - real-time factor of our transcriber (decode + VAD + speech-only batches),
 *   - the same file through the binding called bare (transcribeFile, whole file),
 *     and the ratio ours / bare (target <= 1.1),
 * and Silero VAD throughput in audio minutes per second (target >= 20), peak RSS.
 * With only the weightless test model the figures measure engine overhead, not
 * recognition speed (it recognises nothing); the output says so.
 * Run: npm run bench:transcribe [-- --minutes 10 --runs 3 --models-dir ./models --threads 2]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readWavInfo, readPcm16Window, writeWav } from "../../src/audio/wav.js";
import { scanModels } from "../../src/models/find.js";
import { manifestEntry } from "../../src/models/manifest.js";
import { WhisperTranscriber } from "../../src/pipeline/transcribers/whisper.js";
import { VadEngine, whisperBinding } from "../../src/pipeline/transcribers/whisper-native.js";
import type { Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";
import { fixture, fixturesDir } from "../helpers/fixtures.js";

const argOf = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const MINUTES = Number(argOf("minutes") ?? 10);
const RUNS = Number(argOf("runs") ?? 3);
const THREADS = Number(argOf("threads") ?? os.availableParallelism());
const MODELS_DIR = argOf("models-dir");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const peakRssMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);

function buildAudio(dir: string): { file: string; seconds: number } {
  const src = fixture("ami", "meeting-4spk.wav");
  const info = readWavInfo(src);
  const one = readPcm16Window(src, info, 0, 0, info.frames);
  const copies = Math.ceil((MINUTES * 60 * 16000) / one.length);
  const all = new Int16Array(one.length * copies);
  for (let i = 0; i < copies; i++) all.set(one, i * one.length);
  const file = path.join(dir, `bench-${MINUTES}min.wav`);
  writeWav(file, [all.subarray(0, MINUTES * 60 * 16000)]);
  return { file, seconds: MINUTES * 60 };
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "callreview-bench-tx-"));
  try {
    const { file, seconds } = buildAudio(work);
    const models = MODELS_DIR ? scanModels(MODELS_DIR) : { whisper: [fixture("for-tests-ggml-tiny.en.bin")], vad: [fixture("for-tests-silero-v6.2.0-ggml.bin")] };
    const vadModel = models.vad[0] ?? fixture("for-tests-silero-v6.2.0-ggml.bin");
    console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), node ${process.version}, ${THREADS} threads`);
    console.log(`audio: ${MINUTES} min (AMI meeting fixture repeated), runs per figure: ${RUNS}, models from ${MODELS_DIR ?? fixturesDir}`);

    // VAD throughput on the whole file, one channel.
    const vad = VadEngine.load(vadModel, THREADS);
    const pcm = readPcm16Window(file, readWavInfo(file), 0, 0, seconds * 16000);
    const vadTimes: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      await vad.detect(pcm);
      vadTimes.push((performance.now() - t0) / 1000);
    }
    const vadS = median(vadTimes);
    console.log(`VAD ${path.basename(vadModel)}: ${vadS.toFixed(2)} s for ${MINUTES} min -> ${(MINUTES / vadS).toFixed(2)} audio min/s (target >= 20)`);

    const company = { id: 1, name: "bench", low_score_threshold: 60, settings: {}, created_at: "", updated_at: "" } as Company;
    const call = { id: 1, duration_seconds: seconds } as CallRow;
    for (const model of models.whisper) {
      const testOnly = manifestEntry(path.basename(model))?.test_only;
      if (testOnly) console.log(`note: ${path.basename(model)} is the weightless test model: it recognises nothing, so these figures are engine overhead (encoder passes, VAD, batching), not recognition speed`);
      const ours: number[] = [];
      const bare: number[] = [];
      const transcriber = new WhisperTranscriber({ whisperModel: model, vadModel, threads: THREADS, workRoot: path.join(work, "tmp") });
      const native = new (whisperBinding().WhisperContext)({ filePath: model, useGpu: false });
      for (let r = 0; r < RUNS; r++) {
        let t0 = performance.now();
        await transcriber.transcribe({ call, company, audioPath: file, audioFormat: "wav" });
        ours.push((performance.now() - t0) / 1000);
        t0 = performance.now();
        await native.transcribeFile(file, { language: "en", maxThreads: THREADS, temperature: 0 }).promise;
        bare.push((performance.now() - t0) / 1000);
      }
      await native.release();
      const o = median(ours);
      const b = median(bare);
      console.log(
        `${path.basename(model)}: ours ${o.toFixed(1)} s (RTF ${(o / seconds).toFixed(3)}), bare binding ${b.toFixed(1)} s (RTF ${(b / seconds).toFixed(3)}), ours/bare ${(o / b).toFixed(2)} (target <= 1.1)`,
      );
    }
    console.log(`peak RSS: ${peakRssMiB()} MiB`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
