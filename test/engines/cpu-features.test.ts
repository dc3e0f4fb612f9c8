import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { cpuFeatures, missingFeatures, parseCpuinfo } from "../../src/engines/cpu-features.js";
import { chooseWhisperBuild } from "../../src/engines/whisper-addon.js";

const NONE = { avx: false, avx2: false, fma: false, f16c: false, bmi2: false, avx512f: false };
const V3 = { ...NONE, avx: true, avx2: true, fma: true, f16c: true, bmi2: true };

describe("cpu features", () => {
  it("reads the first flags line of /proc/cpuinfo text", () => {
    const text =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sse2 avx f16c fma bmi1 bmi2 avx2 avx512f avx512bw\nbugs\t\t: sysret_ss_attrs\n\nprocessor\t: 1\nflags\t\t: fpu\n";
    expect(parseCpuinfo(text)).toEqual({ avx: true, avx2: true, fma: true, f16c: true, bmi2: true, avx512f: true });
    // Substrings do not count: avx512vl is not avx512f, sse4_2 is not avx.
    expect(parseCpuinfo("flags\t: sse4_2 avx512vl\n")).toEqual(NONE);
    expect(parseCpuinfo("no flags here")).toEqual(NONE);
  });

  it("this machine's features match /proc/cpuinfo", () => {
    const f = cpuFeatures();
    if (process.platform !== "linux" || process.arch !== "x64") {
      expect(f).toEqual(NONE);
      return;
    }
    const flags = fs
      .readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("flags"))!
      .split(/\s+/);
    expect(f.avx2).toBe(flags.includes("avx2"));
    expect(f.fma).toBe(flags.includes("fma"));
    expect(f.avx512f).toBe(flags.includes("avx512f"));
    // A copy: callers cannot change the cached answer.
    f.avx2 = !f.avx2;
    expect(cpuFeatures().avx2).toBe(!f.avx2);
  });

  it("missingFeatures lists what a build needs and the CPU lacks", () => {
    expect(missingFeatures(["avx", "avx2", "fma"], { ...V3, fma: false })).toEqual(["fma"]);
    expect(missingFeatures(["avx2"], V3)).toEqual([]);
  });
});

describe("whisper engine build choice", () => {
  it("auto picks the SIMD build on an x86-64-v3 CPU and the generic one on an older CPU", () => {
    expect(chooseWhisperBuild("auto", V3).use).toBe("simd");
    expect(chooseWhisperBuild("auto", { ...V3, avx512f: true }).use).toBe("simd");
    const old = chooseWhisperBuild("auto", { ...V3, avx2: false, fma: false });
    expect(old).toEqual({ use: "generic", reason: "CPU lacks avx2, fma" });
    expect(chooseWhisperBuild("auto", NONE).use).toBe("generic");
  });

  it("generic forces the fallback even on a capable CPU", () => {
    expect(chooseWhisperBuild("generic", V3)).toEqual({ use: "generic", reason: "engine build set to generic" });
  });

  it("simd on a CPU without the extensions is a config error, never an illegal instruction", () => {
    expect(() => chooseWhisperBuild("simd", { ...V3, bmi2: false })).toThrow(
      expect.objectContaining({ code: "invalid_config", message: expect.stringMatching(/lacks bmi2/) }),
    );
    expect(chooseWhisperBuild("simd", V3).use).toBe("simd");
  });
});
