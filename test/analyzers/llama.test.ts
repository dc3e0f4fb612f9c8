import fs from "node:fs";
import { describe, expect, it } from "vitest";
import path from "node:path";
import { chooseAnalyzer } from "../../src/pipeline/analyzers/factory.js";
import { LlamaAnalyzer } from "../../src/pipeline/analyzers/llama.js";
import { tempDir } from "../helpers/services.js";
import { formatSegment } from "../../src/pipeline/analyzers/llm/prompt.js";
import { StageError } from "../../src/pipeline/ports.js";
import { OVERALL_TOLERANCE } from "../../src/pipeline/analyzers/post-check-rule.js";
import { ReportSchema } from "../../src/report/schema.js";
import { scriptedCall } from "../eval/calls.js";
import { EVAL_COMPANY, evalCall } from "../eval/run.js";
import { fixture } from "../helpers/fixtures.js";

/**
 * The real llama.cpp engine with the tiny stories260K.gguf fixture: its words
 * are nonsense, so these tests assert shape, determinism, chunking and the
 * time budget, never content.
 */
const MODEL = fixture("stories260K.gguf");
const limits = { maxString: 12, maxItems: 1 };
// One thread: the engine's threads spin-wait for each other, which a loaded test machine punishes.
const threads = 1;
const input = (id: string) => ({ call: evalCall(1), company: EVAL_COMPANY, transcript: scriptedCall(id).transcript });

describe.skipIf(!fs.existsSync(MODEL))("llama analyzer (real engine, fixture model)", () => {
  it("writes a strict-schema report, identical on a second run, from a transcript split into parts", async () => {
    const analyzer = new LlamaAnalyzer({ modelPath: MODEL, contextSize: 4096, timeoutSeconds: 300, limits, threads });
    const parts = await analyzer.plan(input("good_won"));
    expect(parts.length).toBeGreaterThan(1);
    // Nothing dropped: the parts hold every transcript line, in order.
    expect(parts.flat()).toEqual(scriptedCall("good_won").transcript.segments.map(formatSegment));

    const first = await analyzer.analyze(input("good_won"));
    expect(ReportSchema.safeParse(first).success).toBe(true);
    expect(first.summary).toMatch(/^Part 1: .*Part 2: /);
    expect(analyzer.lastTokens).toBeGreaterThan(0);
    const mean = Object.values(first.score_breakdown).reduce((a, v) => a + v, 0) / 12;
    // The model's own overall stands only within the tolerance of the rule (post-check.ts); whatever it wrote, the report holds to that.
    expect(Math.abs(first.overall_score - Math.round(mean * 10))).toBeLessThanOrEqual(OVERALL_TOLERANCE);
    const second = await analyzer.analyze(input("good_won"));
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  }, 300_000);

  it("keeps the trackers' compliance alerts whatever the model writes", async () => {
    const analyzer = new LlamaAnalyzer({ modelPath: MODEL, contextSize: 4096, timeoutSeconds: 300, limits, threads });
    const r = await analyzer.analyze(input("compliance_card"));
    expect(r.compliance_alerts.map((a) => a.type)).toEqual(expect.arrayContaining(["recording_disclosure_late", "payment_data_request"]));
    expect(r.manager_review_required).toBe(true);
  }, 300_000);

  it("stops at its time budget with a retryable analysis_failed", async () => {
    const analyzer = new LlamaAnalyzer({ modelPath: MODEL, contextSize: 4096, timeoutSeconds: 0.01, limits });
    const err = await analyzer.analyze(input("good_won")).catch((e) => e);
    expect(err).toBeInstanceOf(StageError);
    expect(err).toMatchObject({ reason: "analysis_failed", retryable: true });
    expect(err.message).toMatch(/exceeded its time budget of 0\.01 s/);
  });

  it("fails with one clear message for a missing model or a context too small for the prompt", async () => {
    const missing = await new LlamaAnalyzer({ modelPath: "/nonexistent/model.gguf", contextSize: 4096, timeoutSeconds: 10 })
      .analyze(input("good_won"))
      .catch((e) => e);
    expect(missing).toBeInstanceOf(StageError);
    expect(missing).toMatchObject({ reason: "analysis_failed", retryable: false });
    expect(missing.message).toBe("llama model file not found: /nonexistent/model.gguf");
    const tiny = await new LlamaAnalyzer({ modelPath: MODEL, contextSize: 256, timeoutSeconds: 10 }).analyze(input("good_won")).catch((e) => e);
    expect(tiny.message).toMatch(/llama context of 256 tokens is too small for the prompt/);
  });

  it("auto picks llama for a GGUF in the models dir when --llm-model is unset", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const cfg = { analyzer: "auto" as const, llmModel: undefined, modelsDir: dir, ollamaUrl: "http://127.0.0.1:9", ollamaModel: undefined };
      expect(await chooseAnalyzer(cfg)).toMatchObject({ active: "rules", reason: "no LLM configured" });
      fs.symlinkSync(MODEL, path.join(dir, "stories260K.gguf"));
      expect(await chooseAnalyzer(cfg)).toEqual({
        configured: "auto",
        active: "llama",
        model: path.join(dir, "stories260K.gguf"),
        reason: "GGUF model present",
      });
      // An explicit choice never takes a file it was not given.
      expect(await chooseAnalyzer({ ...cfg, analyzer: "llama" })).toMatchObject({ active: "llama", model: null });
    } finally {
      cleanup();
    }
  });

  it("answers an empty transcript without loading the model", async () => {
    const r = await new LlamaAnalyzer({ modelPath: "/nonexistent/model.gguf", contextSize: 4096, timeoutSeconds: 10 }).analyze({ ...input("empty") });
    expect(r.summary).toMatch(/No speech was recognised/);
    expect(r.confidence_level).toBe("low");
  });
});
