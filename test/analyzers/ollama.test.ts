import { afterEach, describe, expect, it } from "vitest";
import { OllamaAnalyzer } from "../../src/pipeline/analyzers/ollama.js";
import { StageError } from "../../src/pipeline/ports.js";
import type { Report } from "../../src/report/schema.js";
import { ReportSchema } from "../../src/report/schema.js";
import { reportJsonSchema } from "../../src/report/validate.js";
import { scriptedCall } from "../eval/calls.js";
import { EVAL_COMPANY, evalCall } from "../eval/run.js";
import { cli, json } from "../helpers/cli.js";
import { tempDir } from "../helpers/services.js";
import { startFakeOllama, type FakeMode } from "./fake-ollama.js";

const MODEL = "qwen2.5:3b-instruct";

/** What a model might answer: a plausible report with one invented quote and one unsupported alert. */
function modelAnswer(): Report {
  const breakdown = {
    rapport: 8,
    discovery: 7,
    needs_analysis: 7,
    value_articulation: 6,
    objection_handling: 5,
    active_listening: 6,
    talk_ratio: 7,
    next_steps: 8,
    qualification: 5,
    pricing_confidence: 6,
    closing: 7,
    compliance: 10,
  };
  return {
    overall_score: 99,
    score_breakdown: breakdown,
    summary: "The rep ran a solid call and the customer agreed to sign.",
    call_outcome: "closed_won",
    close_likelihood: 140,
    objections: [{ objection: "Price felt high", raised_by: "customer", handled: true, suggested_response: "Show payback." }],
    buying_signals: [{ signal: "Asked how long setup takes", strength: "strong" }],
    missed_opportunities: [],
    coaching_notes: { priority: "low", detail: "Keep it up." },
    rep_strengths: ["discovery"],
    rep_weaknesses: [],
    suggested_follow_up: "Send the agreement.",
    crm_note: "Closed won.",
    compliance_alerts: [{ type: "invented_claim", severity: "high", detail: 'The rep said "we double your profits in a week".' }],
    transcript_highlights: [
      { speaker: "customer", quote: "Alright, let's do it. Send over the agreement and I'll sign it tonight.", label: "commitment", t: 999 },
      { speaker: "rep", quote: "We are the cheapest on the market, guaranteed.", label: "other", t: 3 },
    ],
    timeline: [],
    confidence_level: "high",
  };
}

describe("ollama analyzer against a fake Ollama server", () => {
  let fake: Awaited<ReturnType<typeof startFakeOllama>> | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const start = async (mode: FakeMode, delayMs?: number) => (fake = await startFakeOllama({ model: MODEL, mode, answer: modelAnswer, delayMs }));
  const input = (id = "good_won") => ({ call: evalCall(1), company: EVAL_COMPANY, transcript: scriptedCall(id).transcript });

  it("sends model, the Report JSON Schema as format, num_ctx, temperature 0 and a seed; post-checks the answer", async () => {
    const f = await start("ok");
    const r = await new OllamaAnalyzer({ url: f.url, model: MODEL, contextSize: 8192, timeoutSeconds: 30 }).analyze(input());
    const chats = f.requests.filter((q) => q.path === "/api/chat");
    expect(chats).toHaveLength(1);
    const body = chats[0].body;
    expect(body.model).toBe(MODEL);
    expect(body.format).toEqual(reportJsonSchema());
    expect(body.options).toEqual({ num_ctx: 8192, temperature: 0, seed: 42 });
    expect(body.stream).toBe(false);
    expect(body.messages[1].content).toContain("Tracker hits (pattern, or classifier probability p):");
    expect(body.messages[1].content).toMatch(/objection\/price at \d\d:\d\d \(customer, (pattern|p=[0-9.]+)\)/);

    expect(ReportSchema.safeParse(r).success).toBe(true);
    expect(r.call_outcome).toBe("closed_won");
    expect(r.close_likelihood).toBe(100);
    const mean = Object.values(r.score_breakdown).reduce((a, v) => a + v, 0) / 12;
    expect(r.overall_score).toBe(Math.round(mean * 10));
    // The invented quote is gone; the real one is kept at its real time.
    const quotes = r.transcript_highlights!.map((h) => h.quote);
    expect(quotes).not.toContain("We are the cheapest on the market, guaranteed.");
    const real = r.transcript_highlights!.find((h) => h.label === "commitment")!;
    const seg = scriptedCall("good_won").transcript.segments.find((s) => s.text.startsWith("Alright, let's do it"))!;
    expect(real.t).toBe(seg.t_start);
    expect(r.compliance_alerts.map((a) => a.type)).not.toContain("invented_claim");
    // The model's unquoted objection and signal are dropped; the trackers' quoted ones stand in.
    expect(r.objections.map((o) => o.objection)).not.toContain("Price felt high");
    expect(r.objections.some((o) => o.objection.startsWith("price at") && o.objection.includes("more than I had in mind"))).toBe(true);
    expect(r.buying_signals.map((s) => s.signal)).not.toContain("Asked how long setup takes");
  });

  it("keeps the trackers' compliance alerts even when the model reports none", async () => {
    const f = await start("ok");
    const r = await new OllamaAnalyzer({ url: f.url, model: MODEL, contextSize: 8192, timeoutSeconds: 30 }).analyze(input("compliance_investment"));
    expect(r.compliance_alerts.map((a) => a.type)).toEqual(
      expect.arrayContaining(["recording_disclosure_missing", "prohibited_guarantee", "prohibited_risk_free", "pressure_tactics"]),
    );
    expect(r.manager_review_required).toBe(true);
  });

  it("sends a transcript longer than num_ctx in parts, dropping nothing", async () => {
    const f = await start("ok");
    const call = scriptedCall("very_long");
    await new OllamaAnalyzer({ url: f.url, model: MODEL, contextSize: 8192, timeoutSeconds: 30 }).analyze(input("very_long"));
    const chats = f.requests.filter((q) => q.path === "/api/chat");
    expect(chats.length).toBeGreaterThan(1);
    const sent = chats.map((c) => c.body.messages[1].content as string);
    for (const s of call.transcript.segments) expect(sent.filter((p) => p.includes(s.text)).length, s.text).toBeGreaterThanOrEqual(1);
    expect(sent[0]).toContain(`part 1 of ${chats.length}`);
  });

  const failures: Array<[string, FakeMode | "refused", RegExp]> = [
    ["a refused connection", "refused", /ollama server at http:\/\/127\.0\.0\.1:\d+ is unreachable \(ECONNREFUSED\)/],
    ["a missing model (404)", "missing-model", /ollama model "qwen2\.5:3b-instruct" is not available/],
    ["a slow answer", "slow", /ollama did not answer within 0\.5 s/],
    ["invalid JSON", "invalid", /ollama returned output that is not JSON/],
  ];
  for (const [name, mode, message] of failures) {
    it(`turns ${name} into a retryable analysis_failed StageError`, async () => {
      let url: string;
      if (mode === "refused") {
        const f = await start("ok");
        url = f.url;
        await f.close();
        fake = undefined;
      } else {
        url = (await start(mode, 3000)).url;
      }
      const err = await new OllamaAnalyzer({ url, model: MODEL, contextSize: 8192, timeoutSeconds: 0.5 }).analyze(input()).catch((e) => e);
      expect(err).toBeInstanceOf(StageError);
      expect(err.reason).toBe("analysis_failed");
      expect(err.retryable).toBe(true);
      expect(err.message).toMatch(message);
    });
  }

  it("doctor checks the server and the model", async () => {
    const f = await start("ok");
    const { dir, cleanup } = tempDir();
    try {
      const ok = await cli(["--data-dir", dir, "doctor", "--analyzer", "ollama", "--ollama-url", f.url, "--ollama-model", MODEL, "--json"]);
      expect(ok.code).toBe(0);
      expect(json(ok.stdout).analyzer).toMatchObject({ configured: "ollama", active: "ollama", ollama: { ok: true } });
      const auto = json((await cli(["--data-dir", dir, "doctor", "--analyzer", "auto", "--ollama-url", f.url, "--ollama-model", MODEL, "--json"])).stdout);
      expect(auto.analyzer).toMatchObject({ configured: "auto", active: "ollama" });
      const missing = json((await cli(["--data-dir", dir, "doctor", "--ollama-url", f.url, "--ollama-model", "nope:1b", "--json"])).stdout);
      expect(missing.analyzer).toMatchObject({ configured: "auto", active: "rules", ollama: { ok: false } });
      expect(missing.analyzer.ollama.detail).toMatch(/"nope:1b" is not available/);
      const text = await cli(["--data-dir", dir, "doctor", "--ollama-url", f.url, "--ollama-model", "nope:1b"]);
      expect(text.stdout).toMatch(/analyzer\s+rules \(configured auto; ollama not usable/);
    } finally {
      cleanup();
    }
  });
});
