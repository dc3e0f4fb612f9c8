// Scripted edits applied to the unpacked whisper.cpp binding sources before compiling.
// Each edit must match exactly once, so an upstream change fails the build loudly instead of being skipped.

export const whisperPatches = [
  {
    file: "CMakeLists.txt",
    why: "the package does not ship the patch file its CMakeLists applies with git; the engine tree we build is the unpatched one",
    find: /execute_process\(\s*COMMAND git apply --check[\s\S]*?\n(?=if \(WHISPER_NODE_WASM\))/,
    replace: "",
  },
  {
    file: "CMakeLists.txt",
    why: "cmake-js names the arch `x64`, which ggml does not recognise, so it compiled generic code without SIMD; keep the host processor cmake detected (x86_64)",
    find: /set\(CMAKE_SYSTEM_PROCESSOR \$\{NODE_ARCH\}\)/,
    replace: "# CMAKE_SYSTEM_PROCESSOR stays as detected (x86_64) so ggml picks its x86 SIMD kernels",
  },
  {
    file: "src/WhisperContext.cpp",
    why: "VAD ran the Silero network twice per call (detect, then segments_from_samples); segments_from_probs reuses the first pass",
    find: /whisper_vad_segments_from_samples\(\s*session_->ctx,\s*vadParams_,\s*audioData_\.data\(\),\s*audioData_\.size\(\)\)/,
    replace: "whisper_vad_segments_from_probs(session_->ctx, vadParams_)",
  },
];

/** Applies the edits to the files under `dir` (synchronously). */
export function applyPatches(fs, path, dir, patches) {
  for (const p of patches) {
    const file = path.join(dir, p.file);
    const text = fs.readFileSync(file, "utf8");
    const matches = text.match(new RegExp(p.find.source, p.find.flags.includes("g") ? p.find.flags : `${p.find.flags}g`));
    if (matches?.length !== 1) throw new Error(`patch for ${p.file} (${p.why}) matched ${matches?.length ?? 0} times, expected once`);
    fs.writeFileSync(file, text.replace(p.find, p.replace));
  }
}
