// Compiles the whisper.cpp Node addon for x86-64-v3 (AVX2/FMA/F16C/BMI2) from sources in npm
// packages we depend on: the binding from @fugood/whisper.node, the engine tree (whisper.cpp with
// ggml) from nodejs-whisper, N-API headers from node-api-headers and node-addon-api. Our scripted
// patches (whisper-patches.mjs) are applied to a copy under native/out; nothing third-party is kept
// in the repository. Cached: skipped when the output exists for the same sources and patches.
// No cmake or C++ compiler: one line, exit 0, and the prebuilt generic addon is used at run time.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { applyPatches, whisperPatches } from "./whisper-patches.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const target = JSON.parse(fs.readFileSync(path.join(here, "whisper-target.json"), "utf8"));
const outRoot = path.join(here, "out");
const outDir = path.join(outRoot, target.dir);
const addon = path.join(outDir, "index.node");
const infoFile = path.join(outDir, "build-info.json");
/** The unpacked, patched sources; kept so the bench can build whisper-cli from the very same tree. */
export const workDir = path.join(outRoot, "whisper-work");
const logFile = path.join(outRoot, "whisper-build.log");
const jobs = "2";

const packages = {
  binding: "@fugood/whisper.node",
  engine: "nodejs-whisper",
  napiHeaders: "node-api-headers",
  addonApi: "node-addon-api",
};

function say(line) {
  console.log(`[native/whisper] ${line}`);
}

/** Under CI a failed build must fail the run; elsewhere the generic addon is a working fallback. */
function giveUp(line) {
  say(`${line}; the prebuilt generic addon will be used`);
  process.exit(process.env.CI === "true" ? 1 : 0);
}

function has(cmd) {
  const r = spawnSync(cmd, ["--version"], { stdio: "ignore" });
  return r.status === 0;
}

function pkgDir(name) {
  return path.join(root, "node_modules", ...name.split("/"));
}

function pkgVersion(name) {
  return JSON.parse(fs.readFileSync(path.join(pkgDir(name), "package.json"), "utf8")).version;
}

function cacheKey(versions) {
  const h = createHash("sha256");
  h.update(JSON.stringify({ versions, target, node: "napi" }));
  for (const f of ["build-whisper.mjs", "whisper-patches.mjs", "whisper-target.json"]) h.update(fs.readFileSync(path.join(here, f)));
  return h.digest("hex").slice(0, 16);
}

function run(cmd, args, log) {
  fs.appendFileSync(log, `\n$ ${cmd} ${args.join(" ")}\n`);
  const fd = fs.openSync(log, "a");
  try {
    const r = spawnSync(cmd, args, { stdio: ["ignore", fd, fd] });
    if (r.status !== 0) giveUp(`build failed: ${cmd} ${args[0]} exited with ${r.status ?? r.signal} (log: ${path.relative(root, log)})`);
  } finally {
    fs.closeSync(fd);
  }
}

function main() {
  if (process.platform !== "linux" || process.arch !== "x64") {
    say(`no SIMD build for ${process.platform}-${process.arch}; skipped`);
    return;
  }
  for (const [, name] of Object.entries(packages)) {
    if (!fs.existsSync(path.join(pkgDir(name), "package.json"))) return giveUp(`source package ${name} is not installed; skipped`);
  }
  const versions = Object.fromEntries(Object.values(packages).map((n) => [n, pkgVersion(n)]));
  const key = cacheKey(versions);
  if (fs.existsSync(addon) && fs.existsSync(infoFile) && JSON.parse(fs.readFileSync(infoFile, "utf8")).key === key) {
    say(`${target.name} addon up to date (${path.relative(root, addon)})`);
    return;
  }
  const cxx = ["c++", "g++"].find(has);
  if (!has("cmake") || !cxx) {
    say(`cmake and g++ not found (Debian: apt-get install cmake g++); skipped, the prebuilt generic addon will be used`);
    return;
  }

  say(
    `building the ${target.name} addon from ${Object.entries(versions)
      .map(([n, v]) => `${n}@${v}`)
      .join(", ")} (a few minutes, -j${jobs}; log: ${path.relative(root, logFile)})`,
  );
  fs.mkdirSync(outRoot, { recursive: true });
  fs.writeFileSync(logFile, "");
  fs.rmSync(workDir, { recursive: true, force: true });
  const engineTree = path.join(pkgDir(packages.engine), "cpp", "whisper.cpp");
  // Models and samples are not needed to compile.
  const skip = new Set(["models", "samples", ".git"].map((d) => path.join(engineTree, d)));
  fs.cpSync(engineTree, path.join(workDir, "whisper.cpp"), { recursive: true, filter: (src) => !skip.has(src) });
  fs.cpSync(path.join(pkgDir(packages.binding), "src"), path.join(workDir, "src"), { recursive: true });
  fs.copyFileSync(path.join(pkgDir(packages.binding), "CMakeLists.txt"), path.join(workDir, "CMakeLists.txt"));
  try {
    applyPatches(fs, path, workDir, whisperPatches);
  } catch (e) {
    return giveUp(`patching failed: ${e.message}`);
  }

  const buildDir = path.join(workDir, "build");
  const includes = [path.join(pkgDir(packages.napiHeaders), "include"), pkgDir(packages.addonApi)].join(";");
  run(
    "cmake",
    [
      "-S",
      workDir,
      "-B",
      buildDir,
      "-DCMAKE_BUILD_TYPE=Release",
      `-DCMAKE_CXX_COMPILER=${cxx}`,
      `-DCMAKE_JS_INC=${includes}`,
      "-DNODE_ARCH=x86_64",
      "-DWHISPER_BUILD_TESTS=OFF",
      "-DWHISPER_BUILD_EXAMPLES=OFF",
      "-DWHISPER_BUILD_SERVER=OFF",
      ...target.cmake,
    ],
    logFile,
  );
  run("cmake", ["--build", buildDir, "--target", "index", "-j", jobs], logFile);
  const built = path.join(buildDir, "index.node");
  if (!fs.existsSync(built)) return giveUp(`build produced no index.node (log: ${path.relative(root, logFile)})`);

  fs.mkdirSync(outDir, { recursive: true });
  const tmp = `${addon}.tmp-${process.pid}`;
  fs.copyFileSync(built, tmp);
  fs.renameSync(tmp, addon);
  fs.writeFileSync(
    infoFile,
    `${JSON.stringify({ key, target: target.name, features: target.features, versions, built_at: new Date().toISOString() }, null, 2)}\n`,
  );
  say(`built ${path.relative(root, addon)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
