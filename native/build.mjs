// Builds the native engines' SIMD addons from the sources in node_modules (run by
// `npm ci` as postinstall, or by hand with `npm run build:native`). Each builder
// prints one line and exits 0 when it cannot build: the prebuilt generic addons
// remain the engines.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
for (const script of ["build-llama.mjs"]) {
  const r = spawnSync(process.execPath, [path.join(here, script)], { stdio: "inherit" });
  if (r.status !== 0) console.log(`native/${script} exited with ${r.status ?? r.signal}; the generic prebuilt addon is used`);
}
