import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { cpuFeatures, parseCpuFlags } from "../../src/engines/cpu-features.js";
import { llamaThreads } from "../../src/engines/thread-plan.js";

describe("CPU features", () => {
  it("reads the flags line of /proc/cpuinfo", () => {
    const text = "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sse sse2 avx f16c fma bmi2 avx2 avx512f\n\nprocessor\t: 1\n";
    expect(parseCpuFlags(text)).toEqual({ avx: true, avx2: true, fma: true, f16c: true, bmi2: true, avx512f: true });
    expect(parseCpuFlags("flags\t: fpu sse sse2 avx\n")).toEqual({ avx: true, avx2: false, fma: false, f16c: false, bmi2: false, avx512f: false });
    // Flags are whole words: avx512f does not imply avx.
    expect(parseCpuFlags("flags: avx512f").avx).toBe(false);
    expect(parseCpuFlags("")).toEqual({ avx: false, avx2: false, fma: false, f16c: false, bmi2: false, avx512f: false });
  });

  it("matches this host's /proc/cpuinfo", () => {
    const text = fs.existsSync("/proc/cpuinfo") ? fs.readFileSync("/proc/cpuinfo", "utf8") : "";
    expect(cpuFeatures()).toEqual(parseCpuFlags(text));
  });
});

describe("llama thread plan", () => {
  it("keeps workers x threads within the cores, at least one thread, an explicit setting winning", () => {
    expect(llamaThreads(1, 0, 2)).toBe(2);
    expect(llamaThreads(2, 0, 2)).toBe(1);
    expect(llamaThreads(3, 0, 2)).toBe(1);
    expect(llamaThreads(2, 0, 16)).toBe(8);
    expect(llamaThreads(3, 0, 16)).toBe(5);
    expect(llamaThreads(0, 0, 4)).toBe(4);
    expect(llamaThreads(2, 6, 4)).toBe(6);
    for (let cores = 1; cores <= 64; cores++) for (let w = 1; w <= 8; w++) expect(Math.max(1, w * llamaThreads(w, 0, cores)) <= Math.max(cores, w)).toBe(true);
  });
});
