import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";

describe("config: flags > env > defaults", () => {
  it("has documented defaults", () => {
    const c = loadConfig({}, {});
    expect(c).toMatchObject({
      host: "127.0.0.1",
      port: 8080,
      pipeline: "auto",
      workers: 2,
      rateLimit: 120,
      rateLimitWindowSeconds: 60,
      maxUploadMb: 200,
      analyzer: "auto",
      ollamaUrl: "http://127.0.0.1:11434",
    });
    expect(c.dataDir).toBe(path.resolve("./data"));
    expect(c.modelsDir).toBe(path.resolve("./models"));
  });

  it("takes env over defaults and flags over env", () => {
    const env = { CALLREVIEW_PORT: "9000", CALLREVIEW_PIPELINE: "live", CALLREVIEW_DATA_DIR: "/tmp/x" };
    expect(loadConfig({}, env)).toMatchObject({ port: 9000, pipeline: "live", dataDir: "/tmp/x" });
    expect(loadConfig({ port: "9100", pipeline: "placeholder" }, env)).toMatchObject({ port: 9100, pipeline: "placeholder", dataDir: "/tmp/x" });
  });

  it("engine build: auto by default, env CALLREVIEW_ENGINE_BUILD, flag --engine-build wins", () => {
    expect(loadConfig({}, {}).engineBuild).toBe("auto");
    expect(loadConfig({}, { CALLREVIEW_ENGINE_BUILD: "generic" }).engineBuild).toBe("generic");
    expect(loadConfig({ engineBuild: "simd" }, { CALLREVIEW_ENGINE_BUILD: "generic" }).engineBuild).toBe("simd");
  });

  it.each([
    [{ port: "eighty" }, {}, /invalid value for --port: "eighty"/],
    [{ port: "70000" }, {}, /--port.*0 to 65535/],
    [{}, { CALLREVIEW_WORKERS: "-1" }, /invalid value for CALLREVIEW_WORKERS/],
    [{ pipeline: "fast" }, {}, /--pipeline: "fast" \(expected one of auto, placeholder, live\)/],
    [{}, { CALLREVIEW_OLLAMA_URL: "ftp://x" }, /CALLREVIEW_OLLAMA_URL/],
    [{ maxUploadMb: "1.5" }, {}, /--max-upload-mb/],
    [{ engineBuild: "avx2" }, {}, /--engine-build: "avx2" \(expected one of auto, simd, generic\)/],
    [{}, { CALLREVIEW_ENGINE_BUILD: "fast" }, /CALLREVIEW_ENGINE_BUILD: "fast"/],
  ] as const)("refuses a bad value, naming it: %j %j", (flags, env, message) => {
    expect(() => loadConfig(flags, env)).toThrow(message);
  });
});
