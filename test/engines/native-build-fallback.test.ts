import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

// A fresh checkout on a machine without cmake and g++: the build scripts copied into an empty
// tree (no native/out yet) next to the real node_modules, run with a PATH that holds node only.
const work = tempDir("callreview-native-fallback-");
afterAll(() => work.cleanup());

describe("native/build.mjs without cmake and g++", () => {
  it("exits 0, builds nothing and says the prebuilt generic addons will be used", () => {
    const native = path.join(work.dir, "native");
    fs.mkdirSync(native);
    for (const f of fs.readdirSync(path.join(repoRoot, "native"))) {
      if (/\.(mjs|json|cpp)$/.test(f)) fs.copyFileSync(path.join(repoRoot, "native", f), path.join(native, f));
    }
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(work.dir, "node_modules"));
    const bin = path.join(work.dir, "bin");
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, "node"));
    const env = { PATH: bin, HOME: work.dir };

    const r = spawnSync(process.execPath, [path.join(native, "build.mjs")], { cwd: work.dir, env, encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const said = r.stdout + r.stderr;
    expect(said).toMatch(/cmake and g\+\+ not found.*prebuilt generic addon will be used/);
    expect(said).toMatch(/cmake, \S+ or \S+ not found: skipping the SIMD build; the generic prebuilt llama addon is used/);
    expect(fs.existsSync(path.join(native, "out", "whisper-x86-64-v3", "index.node"))).toBe(false);
    expect(fs.existsSync(path.join(native, "out", "llama-x86-64-v3", "index.node"))).toBe(false);

    // The same tree then runs: with no SIMD addon built, both engines fall back to the prebuilt generic
    // build, and doctor says so and what to do about it.
    for (const d of ["src", "cli"]) fs.cpSync(path.join(repoRoot, d), path.join(work.dir, d), { recursive: true });
    for (const f of ["package.json", "tsconfig.json", "models/manifest.json"]) {
      fs.mkdirSync(path.dirname(path.join(work.dir, f)), { recursive: true });
      fs.copyFileSync(path.join(repoRoot, f), path.join(work.dir, f));
    }
    const doctor = spawnSync(
      process.execPath,
      ["--import", "tsx", "cli/main.ts", "doctor", "--json", "--data-dir", path.join(work.dir, "data"), "--models-dir", path.join(work.dir, "models")],
      {
        cwd: work.dir,
        env: { PATH: bin, HOME: work.dir },
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    expect(doctor.status, doctor.stderr).toBe(0);
    const report = JSON.parse(doctor.stdout) as { engines: { engine: string; build: string; reason: string }[]; next_steps: string[] };
    const whisper = report.engines.find((e) => e.engine === "whisper.cpp")!;
    expect(whisper.build).toBe("generic");
    expect(whisper.reason).toMatch(/did not load.*using the prebuilt generic build/);
    expect(report.engines.find((e) => e.engine !== "whisper.cpp")!.build).toBe("generic");
    expect(report.next_steps.join("\n")).toMatch(/cmake/);
  }, 240_000);
});
