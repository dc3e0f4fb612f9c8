import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIMD_FEATURES } from "../../src/engines/llama-addon.js";
import { cpuFeatures } from "../../src/engines/cpu-features.js";
import { ReportSchema } from "../../src/report/schema.js";
import { createCallWithVtt } from "../helpers/import-vtt.js";
import { fixture, repoRoot, VTT } from "../helpers/fixtures.js";
import { BUILD_TIMEOUT_MS, ensureBinary, runBinary, startServeBinary, waitForAnalyzedReport } from "../helpers/binary.js";
import { tempDir } from "../helpers/services.js";

/**
 * The llama analyzer inside the compiled executable, copied alone into an empty
 * directory (no node_modules, no native folder beside it): the engine addons are
 * embedded. stories260K writes nonsense, so these tests assert the schema, the
 * analyzer that ran and clean stdout, never content.
 */
const MODEL = fixture("stories260K.gguf");
// The SIMD build is embedded when native/build-llama.mjs could build it (cmake and g++ present).
const SIMD = fs.existsSync(path.join(repoRoot, "native", "out", "llama-x86-64-v3", "index.node")) && SIMD_FEATURES.every((f) => cpuFeatures()[f]);

describe.skipIf(!fs.existsSync(MODEL))("llama analyzer inside the executable", () => {
  let dir: string;
  let cleanup: () => void;
  let bin: string;
  let vtt: string;
  // Small output limits are not configurable from the command line; a short context keeps generation short.
  const llama = ["--analyzer", "llama", "--llm-model", MODEL, "--llm-context", "2048"];

  beforeAll(() => {
    ({ dir, cleanup } = tempDir());
    bin = path.join(dir, "callreview");
    fs.copyFileSync(ensureBinary(), bin);
    fs.chmodSync(bin, 0o755);
    vtt = path.join(dir, "call.vtt");
    fs.writeFileSync(vtt, VTT);
  }, BUILD_TIMEOUT_MS);
  afterAll(() => cleanup?.());

  const run = (args: string[], env?: Record<string, string>) => {
    const r = runBinary(args, { cwd: dir, env });
    return r;
  };

  it("serve --analyzer llama writes a strict-schema report for an imported transcript; healthz names the engine build", async () => {
    const data = path.join(dir, "serve-data");
    const base = ["--data-dir", data, "--models-dir", path.join(dir, "models")];
    expect(runBinary([...base, "company", "create", "Acme"], { cwd: dir }).code).toBe(0);
    const key = JSON.parse(runBinary([...base, "key", "create", "--company", "1", "--json"], { cwd: dir }).stdout).key as string;
    const serve = await startServeBinary([...base, "--pipeline", "placeholder", "--workers", "1", ...llama], { cwd: dir });
    try {
      const health = await (await fetch(`${serve.url}/healthz`)).json();
      expect(health).toMatchObject({ analyzer: "llama" });
      expect(health.engines).toContainEqual(
        expect.objectContaining({ engine: "llama.cpp", build: SIMD ? "x86-64-v3" : "generic", simd: SIMD ? ["avx2", "fma", "f16c"] : [] }),
      );
      const auth = { authorization: `Bearer ${key}` };
      const callId = await createCallWithVtt(serve.url, auth, "llama-1");
      const report = await waitForAnalyzedReport(serve.url, callId, auth, 1200);
      expect(ReportSchema.safeParse(report).success).toBe(true);
      expect(report.summary).not.toMatch(/^Placeholder/);
      // The trackers' alerts survive whatever the model writes.
      expect(report.compliance_alerts.map((a: { type: string }) => a.type)).toEqual(expect.arrayContaining(["prohibited_guarantee", "prohibited_risk_free"]));
      expect(serve.stderr()).not.toMatch(/analysis_failed|llama generation failed/);
    } finally {
      await serve.stop();
    }
  }, 600_000);

  it("analyze and submit --json keep stdout pure JSON while llama runs (the engine logs elsewhere)", () => {
    const data = path.join(dir, "cli-data");
    const a = run(["--data-dir", data, "analyze", vtt, "--rep-speaker", "Tony", ...llama]);
    expect(a.code).toBe(0);
    const out = JSON.parse(a.stdout);
    expect(out.analyzer).toBe("llama");
    expect(ReportSchema.safeParse(out.report).success).toBe(true);

    expect(run(["--data-dir", data, "company", "create", "Acme"]).code).toBe(0);
    const s = run([
      "--data-dir",
      data,
      "submit",
      "--company",
      "1",
      "--transcript",
      vtt,
      "--rep-speaker",
      "Tony",
      "--wait",
      "--json",
      "--workers",
      "1",
      ...llama,
    ]);
    expect(s.code).toBe(0);
    const call = JSON.parse(s.stdout);
    expect(call.processing_status).toBe("complete");
    expect(call.report_status).toBe("ready");
  }, 600_000);

  it("with the generic build forced (CALLREVIEW_ENGINE_BUILD=generic) the executable still analyses with llama", () => {
    const data = path.join(dir, "generic-data");
    const env = { CALLREVIEW_ENGINE_BUILD: "generic" };
    const doctor = JSON.parse(run(["--data-dir", data, "doctor", "--json", "--analyzer", "llama", "--llm-model", MODEL], env).stdout);
    expect(doctor.engines).toContainEqual(expect.objectContaining({ engine: "llama.cpp", build: "generic", configured: "generic" }));
    const a = run(["--data-dir", data, "analyze", vtt, "--rep-speaker", "Tony", ...llama], env);
    expect(a.code).toBe(0);
    const out = JSON.parse(a.stdout);
    expect(out.analyzer).toBe("llama");
    expect(ReportSchema.safeParse(out.report).success).toBe(true);
  }, 600_000);

  it("an unknown engine build is refused with one line naming the flag", () => {
    const bad = run(["--data-dir", path.join(dir, "bad"), "analyze", vtt, ...llama, "--engine-build", "fast"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/invalid value for --engine-build: "fast" \(expected one of auto, simd, generic\)/);
  });
});
