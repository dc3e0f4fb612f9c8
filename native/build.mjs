// Builds every native engine's SIMD addon from the sources in node_modules (run by `npm install` /
// `npm ci` through postinstall, by `npm run build:native`, and again by `npm run build`). Each step is
// cached, prints one line and exits 0 when it cannot build (no cmake/g++): the prebuilt generic
// addons remain the engines. Under CI=true a failed build fails the install, so CI never tests the
// fallback by accident.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const steps = ["build-whisper.mjs", "build-llama.mjs"];

let failed = false;
for (const step of steps) {
  const r = spawnSync(process.execPath, [path.join(here, step)], { stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`native/${step} failed (exit ${r.status ?? r.signal})`);
    failed = true;
  }
}
if (failed) process.exit(1);
