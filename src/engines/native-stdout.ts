import { isBun } from "../runtime.js";

let done = false;

/**
 * The vendor's prebuilt llama addon prints info lines with printf, i.e. into C's
 * `stdout` stream on fd 1, which `--json` output owns. Inside the executable
 * (Bun) the C library's `stdout` pointer is pointed at its `stderr` stream, so
 * native printf output lands on fd 2 while JavaScript keeps writing to fd 1
 * (Bun and Node write to the descriptor, never through C's stdio). Our own SIMD
 * build is patched at the source instead (native/build-llama.mjs). Under Node
 * there is no FFI: with the generic prebuilt those lines still reach stdout
 * (README, Known limits).
 */
export function keepNativeStdioOffStdout(): boolean {
  if (done) return true;
  if (!isBun || process.platform !== "linux") return false;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ffi = require("bun:ffi") as typeof import("bun:ffi");
    const libc = ffi.dlopen("libc.so.6", {
      dlsym: { args: [ffi.FFIType.ptr, ffi.FFIType.cstring], returns: ffi.FFIType.ptr },
      fflush: { args: [ffi.FFIType.ptr], returns: ffi.FFIType.i32 },
    });
    const name = (s: string) => ffi.ptr(Buffer.from(`${s}\0`));
    // RTLD_DEFAULT (a null handle): the process's global symbols.
    const stdoutVar = libc.symbols.dlsym(null, name("stdout"));
    const stderrVar = libc.symbols.dlsym(null, name("stderr"));
    if (!stdoutVar || !stderrVar) return false;
    const stdoutSlot = new BigUint64Array(ffi.toArrayBuffer(stdoutVar, 0, 8));
    const stderrFile = ffi.read.u64(stderrVar, 0);
    libc.symbols.fflush(null);
    stdoutSlot[0] = stderrFile;
    done = true;
    return true;
  } catch {
    return false;
  }
}
