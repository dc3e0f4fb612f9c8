// Bench only (not run by install or CI): builds whisper.cpp's own `whisper-cli` and
// `whisper-vad-speech-segments` from the very tree native/build-whisper.mjs unpacked and patched,
// with the same SIMD flags, so benchmarks compare our pipeline with the bare engine of the same sources.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const target = JSON.parse(fs.readFileSync(path.join(here, "whisper-target.json"), "utf8"));
const tree = path.join(here, "out", "whisper-work", "whisper.cpp");
const buildDir = path.join(here, "out", `whisper-cli-${target.name}`);
const log = path.join(here, "out", "whisper-cli-build.log");
export const whisperCli = path.join(buildDir, "bin", "whisper-cli");
export const whisperVad = path.join(buildDir, "bin", "whisper-vad-speech-segments");

/** Builds (incrementally) and returns the two executables' paths. */
export function buildWhisperCli() {
  if (!fs.existsSync(tree)) throw new Error(`${tree} is missing: run \`npm run build:native\` first (it unpacks the sources)`);
  if (fs.existsSync(whisperCli) && fs.existsSync(whisperVad)) return { whisperCli, whisperVad };
  fs.writeFileSync(log, "");
  const fd = fs.openSync(log, "a");
  const run = (args) => {
    const r = spawnSync("cmake", args, { stdio: ["ignore", fd, fd] });
    if (r.status !== 0) throw new Error(`cmake ${args[0]} failed (log: ${log})`);
  };
  try {
    run([
      "-S",
      tree,
      "-B",
      buildDir,
      "-DCMAKE_BUILD_TYPE=Release",
      "-DWHISPER_BUILD_TESTS=OFF",
      "-DWHISPER_BUILD_EXAMPLES=ON",
      "-DWHISPER_BUILD_SERVER=OFF",
      "-DWHISPER_SDL2=OFF",
      "-DWHISPER_CURL=OFF",
      ...target.cmake,
    ]);
    run(["--build", buildDir, "--target", "whisper-cli", "whisper-vad-speech-segments", "-j", "2"]);
  } finally {
    fs.closeSync(fd);
  }
  return { whisperCli, whisperVad };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) console.log(buildWhisperCli());
