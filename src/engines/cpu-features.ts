import fs from "node:fs";

/** The x86 SIMD features the native engines' builds are chosen by. */
export interface CpuFeatures {
  avx: boolean;
  avx2: boolean;
  fma: boolean;
  f16c: boolean;
  bmi2: boolean;
  avx512f: boolean;
}

let cached: CpuFeatures | undefined;

/** Parses the `flags` line of /proc/cpuinfo text (the first CPU's: all cores of a host share them). */
export function parseCpuFlags(cpuinfo: string): CpuFeatures {
  const line = /^flags\s*:(.*)$/m.exec(cpuinfo)?.[1] ?? "";
  const flags = new Set(line.trim().split(/\s+/));
  return {
    avx: flags.has("avx"),
    avx2: flags.has("avx2"),
    fma: flags.has("fma"),
    f16c: flags.has("f16c"),
    bmi2: flags.has("bmi2"),
    avx512f: flags.has("avx512f"),
  };
}

/** This CPU's features; all false where /proc/cpuinfo is unreadable (non-Linux, or not x86). */
export function cpuFeatures(): CpuFeatures {
  if (!cached) {
    let text = "";
    try {
      text = fs.readFileSync("/proc/cpuinfo", "utf8");
    } catch {
      text = "";
    }
    cached = parseCpuFlags(text);
  }
  return { ...cached };
}
