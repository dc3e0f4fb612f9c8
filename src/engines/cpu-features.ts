import fs from "node:fs";

/** The x86 SIMD extensions the native engines are built for. */
export interface CpuFeatures {
  avx: boolean;
  avx2: boolean;
  fma: boolean;
  f16c: boolean;
  bmi2: boolean;
  avx512f: boolean;
}

export type CpuFeature = keyof CpuFeatures;

const NONE: CpuFeatures = { avx: false, avx2: false, fma: false, f16c: false, bmi2: false, avx512f: false };

/**
 * Features from the text of /proc/cpuinfo (its first `flags` line). The kernel lists only what it
 * has enabled (e.g. no avx when the OS does not save the wide registers), which is what matters
 * for running the code, not just what the silicon has.
 */
export function parseCpuinfo(text: string): CpuFeatures {
  const line = text.split("\n").find((l) => /^flags\s*:/.test(l));
  if (!line) return { ...NONE };
  const flags = new Set(
    line
      .slice(line.indexOf(":") + 1)
      .trim()
      .split(/\s+/),
  );
  return {
    avx: flags.has("avx"),
    avx2: flags.has("avx2"),
    fma: flags.has("fma"),
    f16c: flags.has("f16c"),
    bmi2: flags.has("bmi2"),
    avx512f: flags.has("avx512f"),
  };
}

let cached: CpuFeatures | undefined;

/** This machine's features: from /proc/cpuinfo on Linux x64, all false elsewhere (so only generic builds load). */
export function cpuFeatures(): CpuFeatures {
  if (!cached) {
    let features = { ...NONE };
    if (process.platform === "linux" && process.arch === "x64") {
      try {
        features = parseCpuinfo(fs.readFileSync("/proc/cpuinfo", "utf8"));
      } catch {
        // No /proc (some sandboxes): assume nothing, the generic build runs everywhere.
      }
    }
    cached = features;
  }
  return { ...cached };
}

/** The features of `needed` this CPU lacks. */
export function missingFeatures(needed: readonly CpuFeature[], have: CpuFeatures = cpuFeatures()): CpuFeature[] {
  return needed.filter((f) => !have[f]);
}
