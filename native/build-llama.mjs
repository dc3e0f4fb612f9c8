// Builds the llama.cpp binding (@fugood/llama.node's N-API addon) for x86-64-v3
// (AVX2, FMA, F16C, BMI2) from the sources of npm packages we depend on:
//   @fugood/llama.node  the binding, and its (already patched) llama.cpp subset:
//                       include/, src/, common/, ggml/include, ggml/src/ggml-cpu
//   llama.rn            same vendor, llama.cpp one commit earlier (build 10256 vs 10257):
//                       the ggml core, tools/mtmd, rn-llama and vendored headers that
//                       the llama.node tarball leaves out. llama.rn prefixes ggml
//                       symbols with lm_ for React Native; the prefix is taken off here.
//   node-addon-api, node-api-headers  the N-API headers.
// Output: native/out/llama-x86-64-v3/index.node (gitignored), cached by a stamp
// of the source package versions and this script's own hash (it holds the patches).
// Without cmake or a C++ compiler it prints one line and exits 0: the generic
// prebuilt addon (@fugood/node-llama-linux-x64) stays the engine.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), "..");
const nm = path.join(root, "node_modules");
const outDir = path.join(root, "native", "out", "llama-x86-64-v3");
const outFile = path.join(outDir, "index.node");
const stampFile = path.join(outDir, "stamp.json");
const work = path.join(root, "native", "out", "llama-build");
const tree = path.join(work, "tree");
const buildDir = path.join(work, "cmake");
const JOBS = "2";
// --bench also builds the bench-only harness native/bench/llama-cbench.cpp (not part of npm ci).
const bench = process.argv.includes("--bench");
// The ISA level of the SIMD build; the loader checks the CPU for exactly these features.
const MARCH = "x86-64-v3";

function say(line) {
  console.log(`build-llama: ${line}`);
}

function has(cmd, args = ["--version"]) {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return r.status === 0;
}

function pkgVersion(name) {
  return JSON.parse(fs.readFileSync(path.join(nm, name, "package.json"), "utf8")).version;
}

function main() {
  if (process.env.CALLREVIEW_SKIP_NATIVE_BUILD === "1") return say("skipped (CALLREVIEW_SKIP_NATIVE_BUILD=1); the generic prebuilt llama addon is used");
  if (process.platform !== "linux" || process.arch !== "x64")
    return say(`no SIMD build for ${process.platform}-${process.arch}; the prebuilt llama addon is used`);
  const cxx = process.env.CXX || "g++";
  const cc = process.env.CC || "gcc";
  if (!has("cmake") || !has(cxx) || !has(cc))
    return say(`cmake, ${cc} or ${cxx} not found: skipping the SIMD build; the generic prebuilt llama addon is used (slower prompt processing)`);
  const deps = ["@fugood/llama.node", "llama.rn", "node-addon-api", "node-api-headers"];
  for (const d of deps)
    if (!fs.existsSync(path.join(nm, d, "package.json")))
      return say(`${d} is not installed: skipping the SIMD build; the generic prebuilt llama addon is used`);

  const key = {
    march: MARCH,
    versions: Object.fromEntries(deps.map((d) => [d, pkgVersion(d)])),
    script: createHash("sha256")
      .update(fs.readFileSync(self))
      .update(fs.readFileSync(path.join(root, "native", "llama-unsupported.cpp")))
      .digest("hex"),
  };
  const keyText = JSON.stringify(key);
  const benchFile = path.join(outDir, "llama-cbench");
  if (fs.existsSync(outFile) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === keyText && (!bench || fs.existsSync(benchFile)))
    return say(`up to date (${path.relative(root, outFile)})`);

  const started = Date.now();
  say(
    `building the ${MARCH} llama addon from ${Object.entries(key.versions)
      .map(([k, v]) => `${k}@${v}`)
      .join(", ")} (-j${JOBS}, a few minutes)`,
  );
  assembleTree(JSON.stringify(key.versions));
  put(path.join(tree, "CMakeLists.txt"), cmakeLists());
  const gen = has("ninja") ? ["-G", "Ninja"] : [];
  const configure = spawnSync("cmake", [...gen, "-S", tree, "-B", buildDir, "-DCMAKE_BUILD_TYPE=", `-DCMAKE_C_COMPILER=${cc}`, `-DCMAKE_CXX_COMPILER=${cxx}`], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (configure.status !== 0) return fail("cmake configure failed");
  const build = spawnSync("cmake", ["--build", buildDir, "--target", "llama_addon", "-j", JOBS], { stdio: ["ignore", "inherit", "inherit"] });
  if (build.status !== 0) return fail("compilation failed");
  if (bench) {
    const b = spawnSync("cmake", ["--build", buildDir, "--target", "llama_cbench", "-j", JOBS], { stdio: ["ignore", "inherit", "inherit"] });
    if (b.status !== 0) return fail("bench harness compilation failed");
    fs.mkdirSync(outDir, { recursive: true });
    fs.copyFileSync(path.join(buildDir, "llama_cbench"), path.join(outDir, "llama-cbench"));
    say(`built ${path.relative(root, path.join(outDir, "llama-cbench"))}`);
  }
  fs.mkdirSync(outDir, { recursive: true });
  // Written under a temporary name then renamed: a half-copied addon is never loaded.
  const tmp = `${outFile}.tmp-${process.pid}`;
  fs.copyFileSync(path.join(buildDir, "index.node"), tmp);
  fs.renameSync(tmp, outFile);
  fs.writeFileSync(stampFile, keyText);
  say(`built ${path.relative(root, outFile)} in ${Math.round((Date.now() - started) / 1000)} s`);
}

function fail(what) {
  // Not fatal for the install: the generic prebuilt addon still works.
  say(`${what}; the generic prebuilt llama addon is used`);
  process.exitCode = 0;
}

/** Takes llama.rn's lm_ prefix off ggml/gguf names so its files match llama.node's. */
function unprefix(text) {
  return text
    .replace(/\blm_ggml/g, "ggml")
    .replace(/\bLM_GGML/g, "GGML")
    .replace(/\blm_gguf/g, "gguf")
    .replace(/\bLM_GGUF/g, "GGUF");
}

/** Writes only what changed, so a rebuild after a patch change recompiles only the patched files. */
function put(to, data) {
  const buf = Buffer.isBuffer(data) ? data : Buffer.from(data);
  if (fs.existsSync(to) && fs.readFileSync(to).equals(buf)) return;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.writeFileSync(to, buf);
}

function copyDir(from, to, filter = () => true, transform) {
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const s = path.join(from, e.name);
    const d = path.join(to, e.name);
    if (e.isDirectory()) copyDir(s, d, filter, transform);
    else if (filter(e.name)) copyFile(s, d, /\.(c|cc|cpp|h|hpp)$/.test(e.name) ? transform : undefined);
  }
}

function copyFile(from, to, transform) {
  put(to, transform ? transform(fs.readFileSync(from, "utf8")) : fs.readFileSync(from));
}

/** Our own patches, applied to the unpacked sources; each must match or the build stops. */
function patch(text, name, from, to, why) {
  if (!text.includes(from)) throw new Error(`patch "${why}" does not apply to ${name}`);
  return text.split(from).join(to);
}

function assembleTree(versions) {
  // A new source version starts from a clean tree; a patch change only rewrites what it touches.
  const treeStamp = path.join(work, "tree-versions.json");
  if (!fs.existsSync(treeStamp) || fs.readFileSync(treeStamp, "utf8") !== versions) fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  fs.writeFileSync(treeStamp, versions);
  const ln = path.join(nm, "@fugood", "llama.node");
  const rn = path.join(nm, "llama.rn", "cpp");
  const src = path.join(tree, "src");
  const lc = path.join(src, "llama.cpp");
  // The binding and llama.cpp as llama.node ships them.
  copyDir(path.join(ln, "src"), src, (n) => n !== "win_dynamic_load.c" && n !== "LlamaContext.cpp");
  fs.rmSync(path.join(src, "wasm"), { recursive: true, force: true });
  // ggml core (ggml/src) from llama.rn.
  const core = fs.readdirSync(rn).filter((n) => /^(ggml|gguf)[^/]*\.(c|cpp|h)$/.test(n) && !fs.existsSync(path.join(lc, "ggml", "include", n)));
  for (const n of core) copyFile(path.join(rn, n), path.join(lc, "ggml", "src", n), unprefix);
  // rn-llama (the binding's engine layer) and its helper.
  for (const n of fs.readdirSync(rn).filter((n) => /^rn-|^anyascii\./.test(n) && n !== "rn-llama.cpp"))
    copyFile(path.join(rn, n), path.join(src, "rn-llama", n), unprefix);
  // The multimodal tool the binding links (never used by callreview, but part of the binding).
  copyDir(path.join(rn, "tools", "mtmd"), path.join(lc, "tools", "mtmd"), () => true, unprefix);
  // Our bench-only harness (built only with --bench; CMake wants the file at configure time).
  put(path.join(tree, "bench", "llama-cbench.cpp"), fs.readFileSync(path.join(root, "native", "bench", "llama-cbench.cpp")));
  // Header-only vendored libraries.
  copyDir(path.join(rn, "nlohmann"), path.join(lc, "vendor", "nlohmann"));
  // What llama.cpp's CMake would generate.
  const v = fs.readFileSync(path.join(ln, "lib", "version.js"), "utf8");
  const num = /BUILD_NUMBER = '(\d+)'/.exec(v)?.[1] ?? "0";
  const commit = /BUILD_COMMIT = '([0-9a-f]+)'/.exec(v)?.[1] ?? "unknown";
  put(
    path.join(lc, "common", "build-info.cpp"),
    [
      `#include "build-info.h"`,
      `#include <cstdio>`,
      `int llama_build_number(void) { return ${num}; }`,
      `const char * llama_commit(void) { return "${commit}"; }`,
      `const char * llama_compiler(void) { return "gcc"; }`,
      `const char * llama_build_target(void) { return "${MARCH}-linux"; }`,
      `const char * llama_build_info(void) { return "b${num}-${commit}"; }`,
      `void llama_print_build_info(void) { fprintf(stderr, "build: %d (%s) for ${MARCH}\\n", ${num}, "${commit}"); }`,
      "",
    ].join("\n"),
  );
  put(path.join(src, "llama-unsupported.cpp"), fs.readFileSync(path.join(root, "native", "llama-unsupported.cpp")));

  // Patches. The sources are copied above unpatched (by put), then each patched
  // file is written once with all its patches, so an unchanged file keeps its mtime.
  const patched = (file, ...edits) => {
    let text = fs.readFileSync(file.from, "utf8");
    if (file.transform) text = file.transform(text);
    for (const [from, to, why] of edits) text = patch(text, path.basename(file.to), from, to, why);
    put(file.to, text);
  };
  // rn-llama prints its info lines with printf, i.e. to stdout, which callreview's
  // --json output owns: only warnings and errors are kept, and they go to stderr.
  patched(
    { from: path.join(nm, "llama.rn", "cpp", "rn-llama.cpp"), to: path.join(src, "rn-llama", "rn-llama.cpp"), transform: unprefix },
    [
      `printf("[%s] %s:%d ", level, function, line);`,
      `if (strcmp(level, "ERROR") != 0 && strcmp(level, "WARNING") != 0) return;\n        fprintf(stderr, "[%s] %s:%d ", level, function, line);`,
      "rn-llama log: warnings and errors only, to stderr",
    ],
    [`vprintf(format, args);`, `vfprintf(stderr, format, args);`, "rn-llama log to stderr"],
    [`printf("\\n");`, `fprintf(stderr, "\\n");`, "rn-llama log to stderr"],
  );
  // toggleNativeLog(false) restores llama.cpp's default logger, which writes every
  // load and decode step to stderr; here it keeps errors only.
  patched({ from: path.join(ln, "src", "LlamaContext.cpp"), to: path.join(src, "LlamaContext.cpp") }, [
    `      g_tsfn.Release();\n      llama_log_set(llama_log_callback_default, nullptr);\n    }`,
    `      g_tsfn.Release();\n    }\n    llama_log_set([](ggml_log_level level, const char *text, void *user_data) {\n      if (level == GGML_LOG_LEVEL_ERROR) llama_log_callback_default(level, text, user_data);\n    }, nullptr);`,
    "quiet native log when switched off",
  ]);
}

function cmakeLists() {
  const nodeInc = path.join(nm, "node-api-headers", "include");
  const napiInc = path.join(nm, "node-addon-api");
  // The arch fix: llama.node's CMake sets CMAKE_SYSTEM_PROCESSOR from cmake-js's
  // NODE_ARCH ("x64"), which ggml does not recognise (GGML_SYSTEM_ARCH UNKNOWN), so
  // its prebuilt compiles no x86 kernels and no AVX. Here the x86 kernels are named
  // and the ISA level is given explicitly.
  return `cmake_minimum_required(VERSION 3.16)
project(callreview_llama C CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_CXX_VISIBILITY_PRESET hidden)
find_package(Threads REQUIRED)

set(S \${CMAKE_SOURCE_DIR}/src)
set(L \${S}/llama.cpp)
file(GLOB GGML_CORE \${L}/ggml/src/*.c \${L}/ggml/src/*.cpp)
file(GLOB GGML_CPU \${L}/ggml/src/ggml-cpu/*.c \${L}/ggml/src/ggml-cpu/*.cpp
  \${L}/ggml/src/ggml-cpu/arch/x86/*.c \${L}/ggml/src/ggml-cpu/arch/x86/*.cpp
  \${L}/ggml/src/ggml-cpu/llamafile/*.cpp)
file(GLOB LLAMA_SRC \${L}/src/*.cpp)
file(GLOB LLAMA_MODELS \${L}/src/models/*.cpp)
set(COMMON_NAMES build-info debug chat-auto-parser-generator chat-auto-parser-helpers chat-diff-analyzer chat-peg-parser chat
  common fit json-schema-to-grammar log ngram-cache ngram-map ngram-mod peg-parser reasoning-budget sampling speculative trie unicode)
set(COMMON_SRC)
foreach(n \${COMMON_NAMES})
  list(APPEND COMMON_SRC \${L}/common/\${n}.cpp)
endforeach()
file(GLOB JINJA_SRC \${L}/common/jinja/*.cpp)
# (tools/mtmd/debug is a command-line tool of its own: left out.)
file(GLOB MTMD_SRC \${L}/tools/mtmd/*.cpp)
file(GLOB MTMD_MODELS \${L}/tools/mtmd/models/*.cpp)
file(GLOB RN_SRC \${S}/rn-llama/*.cpp \${S}/rn-llama/*.c)
file(GLOB BINDING_SRC \${S}/*.cc \${S}/*.cpp)
# src/llama.cpp is the llama.cpp directory, not a source file.
list(FILTER BINDING_SRC EXCLUDE REGEX "/llama\\.cpp$")

# Only ggml's kernels decide speed: they get -O3 and the ISA level; the rest
# (model graphs, chat templates, the binding) is compiled for build time, in
# unity batches where the files are many and small.
set(INC ${JSON.stringify(nodeInc)} ${JSON.stringify(napiInc)}
  \${S} \${S}/rn-llama \${L} \${L}/common \${L}/src \${L}/include
  \${L}/ggml/include \${L}/ggml/src \${L}/ggml/src/ggml-cpu \${L}/tools/mtmd \${L}/vendor)
set(DEFS NAPI_VERSION=6 NAPI_CPP_EXCEPTIONS GGML_MAX_NAME=80 _GNU_SOURCE
  GGML_USE_CPU GGML_USE_CPU_REPACK GGML_USE_LLAMAFILE GGML_AVX GGML_AVX2 GGML_FMA GGML_F16C GGML_BMI2 GGML_SSE42
  GGML_SCHED_MAX_COPIES=4 GGML_VERSION="0.0.0" GGML_COMMIT="unknown" NDEBUG)
function(part name opt unity)
  add_library(\${name} OBJECT \${ARGN})
  target_include_directories(\${name} PRIVATE \${INC})
  target_compile_definitions(\${name} PRIVATE \${DEFS})
  target_compile_options(\${name} PRIVATE \${opt} -march=${MARCH} -mtune=generic -fno-finite-math-only -w)
  if (unity)
    set_target_properties(\${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 24)
  endif()
endfunction()
part(p_ggml -O3 OFF \${GGML_CORE} \${GGML_CPU})
# OpenMP threads, as llama.cpp's default build and the vendor's prebuilt (which links libgomp too):
# its barriers sleep after a short spin, where ggml's own pool spins, which a busy host punishes.
find_package(OpenMP REQUIRED)
target_compile_definitions(p_ggml PRIVATE GGML_USE_OPENMP)
target_link_libraries(p_ggml PRIVATE OpenMP::OpenMP_C OpenMP::OpenMP_CXX)
part(p_llama -O2 OFF \${LLAMA_SRC})
part(p_models -O1 ON \${LLAMA_MODELS})
part(p_common -O2 OFF \${COMMON_SRC} \${JINJA_SRC})
part(p_mtmd -O1 OFF \${MTMD_SRC})
part(p_mtmd_models -O1 ON \${MTMD_MODELS})
# Defines a static helper another model file defines too.
set_source_files_properties(\${L}/src/models/gemma3n.cpp TARGET_DIRECTORY p_models PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
part(p_binding -O1 OFF \${BINDING_SRC} \${RN_SRC})
add_library(llama_addon SHARED $<TARGET_OBJECTS:p_ggml> $<TARGET_OBJECTS:p_llama> $<TARGET_OBJECTS:p_models>
  $<TARGET_OBJECTS:p_common> $<TARGET_OBJECTS:p_mtmd> $<TARGET_OBJECTS:p_mtmd_models> $<TARGET_OBJECTS:p_binding>)
set_target_properties(llama_addon PROPERTIES PREFIX "" OUTPUT_NAME "index" SUFFIX ".node" LINKER_LANGUAGE CXX)
target_link_options(llama_addon PRIVATE -Wl,--exclude-libs,ALL -static-libstdc++ -static-libgcc)
target_link_libraries(llama_addon PRIVATE OpenMP::OpenMP_CXX Threads::Threads dl m)
# Bench only (native/build-llama.mjs --bench): llama.cpp's C API from the same objects.
add_executable(llama_cbench EXCLUDE_FROM_ALL \${CMAKE_SOURCE_DIR}/bench/llama-cbench.cpp $<TARGET_OBJECTS:p_ggml> $<TARGET_OBJECTS:p_llama> $<TARGET_OBJECTS:p_models>)
target_include_directories(llama_cbench PRIVATE \${INC})
target_compile_definitions(llama_cbench PRIVATE \${DEFS})
target_compile_options(llama_cbench PRIVATE -O2 -march=${MARCH} -w)
target_link_libraries(llama_cbench PRIVATE OpenMP::OpenMP_CXX Threads::Threads dl m)
`;
}

try {
  main();
} catch (e) {
  fail(`${e.message.split("\n")[0]}`);
}
