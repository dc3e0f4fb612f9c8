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
  }, 180_000);
});
