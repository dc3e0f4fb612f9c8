/**
 * Transcription benchmark: our pipeline against whisper.cpp's own tools built from the SAME
 * sources in the same run (native/build-whisper-cli.mjs builds whisper-cli and
 * whisper-vad-speech-segments from the tree native/build.mjs unpacked and patched).
 *   A. jfk.wav (11 s): dist/callreview copied alone into an empty dir, with the SIMD build, with
 *      the generic build forced, and whisper-cli, in interleaved rounds: (a) `transcribe` (the
 *      like-for-like one-shot command) and (b) `submit --wait` (live pipeline, database, rules
 *      analysis); VAD on for all three; plus the engine time alone (model loaded) of ours against
 *      whisper-cli's own timing lines.
 *   B. N minutes of stereo audio (AMI meeting repeated; the right channel shifted by 30 s) through
 *      our transcriber (VAD per channel + speech-only batches) vs whisper-cli on the two channel
 *      files, same threads.
 *   C. Silero VAD throughput (audio minutes/s, one thread) vs whisper-vad-speech-segments, and
 *      both channels in parallel.
 * Weightless test model: it recognises nothing, so the figures are engine cost (encoder and
 * decoder passes), not recognition speed. Medians of --runs; machine and load printed.
 * Run: npm run bench:transcribe [-- --minutes 10 --runs 3 --threads 2 --no-generic --parts A,B,C]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildWhisperCli } from "../../native/build-whisper-cli.mjs";
import { readPcm16Window, readWavInfo, writeWav } from "../../src/audio/wav.js";
import { WhisperTranscriber } from "../../src/pipeline/transcribers/whisper.js";
import { VadEngine } from "../../src/pipeline/transcribers/whisper-native.js";
import { loadedEngines } from "../../src/engines/status.js";
import type { Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";
import { ensureBinary } from "../helpers/binary.js";
import { fixture } from "../helpers/fixtures.js";

const argOf = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const MINUTES = Number(argOf("minutes") ?? 10);
const RUNS = Number(argOf("runs") ?? 3);
/** Part A's process rounds are short: at least 5 for a median that means something. */
const ARUNS = Math.max(5, RUNS);
const THREADS = Number(argOf("threads") ?? os.availableParallelism());
const GENERIC = !process.argv.includes("--no-generic");
const PARTS = new Set((argOf("parts") ?? "A,B,C").split(","));
const MODEL = fixture("for-tests-ggml-tiny.en.bin");
const VAD_MODEL = fixture("for-tests-silero-v6.2.0-ggml.bin");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const f = (s: number) => `${s.toFixed(2)} s`;

function timeIt(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return (performance.now() - t0) / 1000;
}

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

function mustRun(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(" ")} exited ${r.status ?? r.signal}:\n${r.stderr?.slice(-2000)}`);
  return `${r.stdout}\n${r.stderr}`;
}

/** whisper-cli's own "total time" minus its model load: the engine time alone. */
function cliEngineSeconds(out: string): number {
  const ms = (name: string) => Number(new RegExp(`${name} time =\\s*([\\d.]+) ms`).exec(out)?.[1] ?? NaN);
  return (ms("total") - ms("load")) / 1000;
}

function stereoCall(dir: string): { stereo: string; left: string; right: string; seconds: number } {
  const src = fixture("ami", "meeting-4spk.wav");
  const info = readWavInfo(src);
  const one = readPcm16Window(src, info, 0, 0, info.frames);
  const frames = MINUTES * 60 * 16_000;
  const left = new Int16Array(frames);
  const right = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = one[i % one.length];
    right[i] = one[(i + 30 * 16_000) % one.length];
  }
  const out = { stereo: path.join(dir, "stereo.wav"), left: path.join(dir, "left.wav"), right: path.join(dir, "right.wav"), seconds: MINUTES * 60 };
  writeWav(out.stereo, [left, right]);
  writeWav(out.left, [left]);
  writeWav(out.right, [right]);
  return out;
}

interface Bench {
  work: string;
  whisperCli: string;
  whisperVad: string;
  company: Company;
  transcriber: WhisperTranscriber;
}
type Stereo = ReturnType<typeof stereoCall>;
type Rounds = { simd: number[]; generic: number[]; cli: number[] };

const cliArgs = (file: string) => ["-m", MODEL, "-f", file, "-t", String(THREADS), "-l", "en", "-nfa"];

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "callreview-bench-tx-"));
  try {
    console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), node ${process.version}, ${THREADS} threads, runs per figure: ${RUNS}`);
    console.log(`load average at start: ${load()}`);
    const { whisperCli, whisperVad } = buildWhisperCli();
    const company = { id: 1, name: "bench", low_score_threshold: 60, settings: {}, created_at: "", updated_at: "" } as Company;

    const transcriber = new WhisperTranscriber({ whisperModel: MODEL, vadModel: VAD_MODEL, threads: THREADS, workRoot: path.join(work, "tmp") });
    const bench: Bench = { work, whisperCli, whisperVad, company, transcriber };
    if (PARTS.has("A")) await partA(bench);
    const audio = stereoCall(work);
    if (PARTS.has("B")) await partB(bench, audio);
    if (PARTS.has("C")) await partC(bench, audio);
    console.log(`\npeak RSS of this process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB; load average at end: ${load()}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The executable copied alone into an empty dir, with a models dir of symlinks and no CALLREVIEW_ variables. */
interface Alone {
  work: string;
  dir: string;
  bin: string;
  models: string;
  env: NodeJS.ProcessEnv;
  dataDirs: number;
}

function prepareAlone(work: string): Alone {
  const alone = path.join(work, "alone");
  fs.mkdirSync(alone);
  const bin = path.join(alone, "callreview");
  fs.copyFileSync(ensureBinary(), bin);
  fs.chmodSync(bin, 0o755);
  const models = path.join(work, "models");
  fs.mkdirSync(models);
  fs.symlinkSync(MODEL, path.join(models, path.basename(MODEL)));
  fs.symlinkSync(VAD_MODEL, path.join(models, path.basename(VAD_MODEL)));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CALLREVIEW_")));
  return { work, dir: alone, bin, models, env, dataDirs: 0 };
}

const envFor = (a: Alone, build: string) => ({ ...a.env, CALLREVIEW_ENGINE_BUILD: build });

function binaryJfk(a: Alone, build: string): number {
  const data = path.join(a.work, `data-${a.dataDirs++}`);
  const base = ["--data-dir", data, "--models-dir", a.models];
  mustRun(a.bin, [...base, "company", "create", "Bench"], { cwd: a.dir, env: a.env });
  return timeIt(() =>
    mustRun(
      a.bin,
      [
        ...base,
        "submit",
        fixture("jfk.wav"),
        "--company",
        "1",
        "--wait",
        "--json",
        "--pipeline",
        "live",
        "--whisper-threads",
        String(THREADS),
        "--workers",
        "1",
      ],
      { cwd: a.dir, env: envFor(a, build) },
    ),
  );
}

/** The like-for-like command: one file, one process, no database; same model, threads, language and VAD model as whisper-cli's flags. */
function binaryTranscribe(a: Alone, build: string): number {
  return timeIt(() =>
    mustRun(a.bin, ["--models-dir", a.models, "transcribe", fixture("jfk.wav"), "--threads", String(THREADS), "--format", "json"], {
      cwd: a.dir,
      env: envFor(a, build),
    }),
  );
}

/** Interleaved rounds (a SIMD run, a generic run, a whisper-cli run, again...): background load hits all three alike. */
function rounds(a: Alone, whisperCli: string, label: string, simd: () => number): Rounds {
  const cliVadArgs = (file: string) => [...cliArgs(file), "--vad", "-vm", VAD_MODEL];
  const runs: Rounds = { simd: [], generic: [], cli: [] };
  console.log(`  ${label}: load before ${load()}`);
  for (let r = 0; r < ARUNS; r++) {
    runs.simd.push(simd());
    if (GENERIC) runs.generic.push(label.startsWith("a") ? binaryTranscribe(a, "generic") : binaryJfk(a, "generic"));
    runs.cli.push(timeIt(() => mustRun(whisperCli, cliVadArgs(fixture("jfk.wav")))));
  }
  console.log(`  ${label}: load after ${load()}`);
  return runs;
}

function printRounds(name: string, build: string, runs: Rounds): void {
  console.log(`  ${name}, ${build} build: ${f(median(runs.simd))}  [${runs.simd.map((x) => x.toFixed(2)).join(", ")}]`);
  if (GENERIC)
    console.log(
      `  ${name}, CALLREVIEW_ENGINE_BUILD=generic (prebuilt addon): ${f(median(runs.generic))}  [${runs.generic.map((x) => x.toFixed(2)).join(", ")}] -> SIMD is ${(median(runs.generic) / median(runs.simd)).toFixed(1)}x faster (target >= 10)`,
    );
  console.log(
    `    whisper-cli --vad (same sources, same flags): ${f(median(runs.cli))}  [${runs.cli.map((x) => x.toFixed(2)).join(", ")}] -> callreview / whisper-cli ${(median(runs.simd) / median(runs.cli)).toFixed(2)} (target <= 1.2)`,
  );
}

/** A. jfk through the executable, alone in an empty dir. */
async function partA(bench: Bench): Promise<void> {
  const a = prepareAlone(bench.work);
  const doctor = JSON.parse(
    mustRun(a.bin, ["--data-dir", path.join(bench.work, "data-doctor"), "doctor", "--json"], { cwd: a.dir, env: a.env }).split("\n\n")[0],
  );
  console.log(
    `\nA. jfk.wav (11 s), weightless tiny.en, ${THREADS} threads, language en, no flash attention, Silero VAD v6.2.0 on for all — process wall time, ${ARUNS} interleaved rounds`,
  );
  const ra = rounds(a, bench.whisperCli, "a) transcribe", () => binaryTranscribe(a, "auto"));
  const rb = rounds(a, bench.whisperCli, "b) submit --wait", () => binaryJfk(a, "auto"));
  console.log("  a) `dist/callreview transcribe jfk.wav` (alone in an empty dir; no database):");
  printRounds("    callreview transcribe", doctor.engines[0].build, ra);
  console.log("  b) `dist/callreview submit --wait` (company created beforehand; database, queue, rules analysis):");
  printRounds("    callreview submit --wait", doctor.engines[0].build, rb);
  await engineTime(bench);
}

/** Engine time alone: our transcriber with the model loaded vs whisper-cli's total minus load. */
async function engineTime({ transcriber, company, whisperCli }: Bench): Promise<void> {
  const jfkCall = { id: 1, duration_seconds: 11 } as CallRow;
  await transcriber.transcribe({ call: jfkCall, company, audioPath: fixture("jfk.wav"), audioFormat: "wav" });
  const oursJfk: number[] = [];
  const cliJfk: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    oursJfk.push(await timeAsync(() => transcriber.transcribe({ call: jfkCall, company, audioPath: fixture("jfk.wav"), audioFormat: "wav" })));
    cliJfk.push(cliEngineSeconds(mustRun(whisperCli, cliArgs(fixture("jfk.wav")))));
  }
  console.log(
    `  engine time, model loaded (${loadedEngines()[0]?.build} build in this process): ours ${f(median(oursJfk))} (VAD + transcription) vs whisper-cli ${f(median(cliJfk))} -> ${(median(oursJfk) / median(cliJfk)).toFixed(2)}`,
  );
}

/** B. N minutes of stereo. */
async function partB({ transcriber, company, whisperCli }: Bench, audio: Stereo): Promise<void> {
  const call = { id: 2, duration_seconds: audio.seconds } as CallRow;
  const ours: number[] = [];
  const cli: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    ours.push(await timeAsync(() => transcriber.transcribe({ call, company, audioPath: audio.stereo, audioFormat: "wav" })));
    cli.push(timeIt(() => mustRun(whisperCli, cliArgs(audio.left))) + timeIt(() => mustRun(whisperCli, cliArgs(audio.right))));
  }
  console.log(`\nB. ${MINUTES} min stereo (AMI repeated, right channel shifted 30 s), ${THREADS} threads`);
  console.log(
    `  ours (decode, VAD both channels, speech-only batches): ${f(median(ours))} (RTF ${(median(ours) / audio.seconds).toFixed(3)})  [${ours.map((x) => x.toFixed(1)).join(", ")}]`,
  );
  console.log(
    `  whisper-cli on the two channel files: ${f(median(cli))} (RTF ${(median(cli) / audio.seconds).toFixed(3)})  [${cli.map((x) => x.toFixed(1)).join(", ")}] -> ours / whisper-cli ${(median(ours) / median(cli)).toFixed(2)}`,
  );
}

/** C. VAD. */
async function partC({ whisperVad }: Bench, audio: Stereo): Promise<void> {
  const vad = VadEngine.load(VAD_MODEL);
  const info = readWavInfo(audio.left);
  const left = readPcm16Window(audio.left, info, 0, 0, info.frames);
  const right = readPcm16Window(audio.right, info, 0, 0, info.frames);
  const oursVad: number[] = [];
  const bothVad: number[] = [];
  const cliVad: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    oursVad.push(await timeAsync(() => vad.detect(left)));
    bothVad.push(await timeAsync(() => vad.detectEach([left, right])));
    cliVad.push(timeIt(() => mustRun(whisperVad, ["-f", audio.left, "-vm", VAD_MODEL, "-t", "1", "-np"])));
  }
  const rate = (s: number, minutes = MINUTES) => (minutes / s).toFixed(1);
  console.log(`\nC. Silero VAD (v6.2.0), ${MINUTES} min, 1 thread per channel`);
  console.log(`  ours, one channel: ${f(median(oursVad))} -> ${rate(median(oursVad))} audio min/s`);
  console.log(
    `  whisper-vad-speech-segments (same sources, process incl. WAV read): ${f(median(cliVad))} -> ${rate(median(cliVad))} audio min/s -> ours / cli ${(median(oursVad) / median(cliVad)).toFixed(2)} (target <= 1.3)`,
  );
  console.log(`  ours, both channels in parallel: ${f(median(bothVad))} -> ${rate(median(bothVad), 2 * MINUTES)} channel-min/s`);
}

await main();
