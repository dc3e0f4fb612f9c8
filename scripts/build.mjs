// Compiles the CLI (and everything it imports) into one executable, dist/callreview, with Bun from node_modules.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// The SIMD engine addon must exist before bun embeds it (cached: a no-op when already built).
const native = spawnSync(process.execPath, [path.join(root, "native", "build.mjs")], { cwd: root, stdio: "inherit" });
if (native.status !== 0) {
  console.error(`native engine build failed (exit ${native.status ?? native.signal})`);
  process.exit(1);
}
const bun = path.join(root, "node_modules", ".bin", process.platform === "win32" ? "bun.exe" : "bun");
const out = path.join(root, "dist", "callreview");
mkdirSync(path.dirname(out), { recursive: true });

const args = [
  "build",
  "--compile",
  "--minify-syntax",
  "--sourcemap=none",
  // Node-only modules: reached only when the runtime is Node, never inside the executable.
  "--external",
  "better-sqlite3",
  "--external",
  "@hono/node-server",
  // The SIMD llama addon is embedded when native/build-llama.mjs built it; without it the
  // literal require stays unresolved and fails at run time, which selects the generic addon.
  ...(existsSync(path.join(root, "native", "out", "llama-x86-64-v3", "index.node")) ? [] : ["--external", "*/llama-x86-64-v3/index.node"]),
  path.join(root, "cli", "main.ts"),
  "--outfile",
  out,
];
const r = spawnSync(bun, args, { cwd: root, stdio: "inherit" });
if (r.status !== 0) {
  console.error(`build failed (bun exited with ${r.status ?? r.signal})`);
  process.exit(1);
}
console.log(`built ${path.relative(process.cwd(), out) || out}`);
