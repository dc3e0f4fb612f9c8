// Builds every native engine from the sources in node_modules (run by `npm install`/`npm ci`
// through postinstall, and again by `npm run build`; each step is cached and exits 0 when it
// cannot build, leaving the prebuilt addon as the fallback). One step per engine.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const steps = ["build-whisper.mjs"];

for (const step of steps) {
  const r = spawnSync(process.execPath, [path.join(here, step)], { stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`native/${step} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}
