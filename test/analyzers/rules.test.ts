import { WORKS_COUNCIL_TRACKER } from "../helpers/trackers.js";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { parseTrackerFile, TrackerConfigError } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { locateQuote } from "../../src/pipeline/analyzers/post-check.js";
import type { Transcript } from "../../src/pipeline/ports.js";
import { ReportSchema } from "../../src/report/schema.js";
import type { Company } from "../../src/store/companies.js";
import { CALLS, scriptedCall } from "../eval/calls.js";
import { detections, prf } from "../eval/detections.js";
import { loadSplit } from "../eval/corpus.js";
import { groupTally, scoreCorpus } from "../eval/score-corpus.js";

/**
 * Dev figures, a little under what `npm run eval` prints today, so a change that loses ground fails.
 * The built-in models are trained on these lines, so this is a fit, not a measure of unseen wording
 * (that is `npm run eval:cv`, leave one writer out). Two clean calls of the later batches still raise
 * a pattern alarm (README "Known limits").
 */
const DEV_FLOORS = {
  objectionPrecision: 0.9,
  objectionRecall: 0.94,
  signalPrecision: 0.9,
  signalRecall: 0.97,
  breachRecall: 0.95,
  cleanFalseAlarms: 2,
  disclosure: 0.95,
  outcome: 0.83,
  nextStep: 0.94,
};
import { EVAL_COMPANY, evalCall } from "../eval/run.js";
import { timed } from "../eval/script.js";
import { cli, json } from "../helpers/cli.js";
import { tempDir } from "../helpers/services.js";

const rules = new RulesAnalyzer();
const analyze = (transcript: Transcript | null, company: Company = EVAL_COMPANY, metadata = "{}") =>
  rules.analyze({ call: { ...evalCall(1), metadata } as never, company, transcript });

describe("rules analyzer on the labelled dev corpus", () => {
  // A regression guard on the split the trackers were tuned on (figures printed by `npm run eval`);
  // the floors are asserted on the held-out test split in test/eval/floors.test.ts.
  it("stays at or above the dev figures it reached", async () => {
    const f = await scoreCorpus(loadSplit("dev"));
    expect(f.calls).toBeGreaterThanOrEqual(30);
    const objections = prf(groupTally(f.callLevel, "objection:"));
    const signals = prf(groupTally(f.callLevel, "signal:"));
    expect(objections.precision).toBeGreaterThanOrEqual(DEV_FLOORS.objectionPrecision);
    expect(objections.recall).toBeGreaterThanOrEqual(DEV_FLOORS.objectionRecall);
    expect(signals.precision).toBeGreaterThanOrEqual(DEV_FLOORS.signalPrecision);
    expect(signals.recall).toBeGreaterThanOrEqual(DEV_FLOORS.signalRecall);
    expect(f.breachRecall.found / f.breachRecall.expected).toBeGreaterThanOrEqual(DEV_FLOORS.breachRecall);
    expect(f.cleanFalseAlarms).toBeLessThanOrEqual(DEV_FLOORS.cleanFalseAlarms);
    expect(f.disclosureRight / f.calls).toBeGreaterThanOrEqual(DEV_FLOORS.disclosure);
    expect(f.outcomeRight / f.calls).toBeGreaterThanOrEqual(DEV_FLOORS.outcome);
    expect(f.nextStepRight / f.calls).toBeGreaterThanOrEqual(DEV_FLOORS.nextStep);
  });
});

describe("rules analyzer on the older scripted calls", () => {
  for (const c of CALLS) {
    it(`${c.id}: a schema-valid report with exactly the compliance alerts the script holds`, async () => {
      const r = await analyze(c.transcript);
      expect(ReportSchema.safeParse(r).success).toBe(true);
      expect(detections(r).compliance).toEqual([...c.expected.compliance].sort());
    });
  }

  it("is deterministic: the same input gives byte-identical reports", async () => {
    for (const id of ["good_won", "very_long", "compliance_investment"]) {
      const a = JSON.stringify(await analyze(scriptedCall(id).transcript));
      const b = JSON.stringify(await analyze(structuredClone(scriptedCall(id).transcript)));
      expect(a).toBe(b);
    }
  });

  it("ties every highlight and compliance alert to a real quote at its real time", async () => {
    const call = scriptedCall("compliance_investment");
    const r = await analyze(call.transcript);
    expect(r.transcript_highlights!.length).toBeGreaterThan(0);
    for (const h of r.transcript_highlights!) {
      const seg = call.transcript.segments.find((s) => s.text.includes(h.quote.replace(/…$/, "")));
      expect(seg, h.quote).toBeDefined();
      expect(h.t).toBe(seg!.t_start);
    }
    const guarantee = r.compliance_alerts.find((a) => a.type === "prohibited_guarantee")!;
    const seg = call.transcript.segments.find((s) => /guarantee a return/.test(s.text))!;
    expect(guarantee.severity).toBe("critical");
    expect(guarantee.detail).toContain("We guarantee a return of nine percent");
    expect(guarantee.detail).toContain(`00:${String(Math.floor(seg.t_start)).padStart(2, "0")}`);
    expect(locateQuote(call.transcript, "We guarantee a return of nine percent")).toBe(seg.t_start);
    expect(r.manager_review_required).toBe(true);
    expect(r.score_breakdown.compliance).toBeLessThanOrEqual(2);
  });

  it("keeps overall_score equal to the mean of the breakdown and sets review by policy", async () => {
    const r = await analyze(scriptedCall("good_won").transcript, { ...EVAL_COMPANY, low_score_threshold: 0 });
    const mean = Object.values(r.score_breakdown).reduce((a, v) => a + v, 0) / 12;
    expect(r.overall_score).toBe(Math.round(mean * 10));
    expect(r.manager_review_required).toBe(false);
    const hv = await analyze(
      scriptedCall("good_won").transcript,
      { ...EVAL_COMPANY, low_score_threshold: 0 },
      JSON.stringify({ high_value_opportunity: true }),
    );
    expect(hv.manager_review_required).toBe(true);
    const strict = await analyze(scriptedCall("good_won").transcript, { ...EVAL_COMPANY, low_score_threshold: 100 });
    expect(strict.manager_review_required).toBe(true);
  });

  it("scores talk_ratio from the real talk time when metrics exist", async () => {
    const t = scriptedCall("good_won").transcript;
    const metrics = (ratio: number) => ({
      duration_seconds: 150,
      speech_seconds: 120,
      silence_share: 0.2,
      rep_talk_seconds: 120 * ratio,
      customer_talk_seconds: 120 * (1 - ratio),
      talk_ratio: ratio,
      longest_monologue_rep_seconds: 10,
      longest_monologue_customer_seconds: 8,
      turns: 20,
      overlap_seconds: 0,
    });
    const balanced = await analyze({ ...t, metrics: metrics(0.5) });
    const monologue = await analyze({ ...t, metrics: metrics(0.92) });
    expect(balanced.score_breakdown.talk_ratio).toBe(10);
    expect(monologue.score_breakdown.talk_ratio).toBeLessThanOrEqual(1);
  });

  it("says no speech was recognised for an empty transcript (weightless whisper model) and for none", async () => {
    for (const t of [
      { segments: [{ t_start: 0, t_end: 11, speaker: "unknown", text: "  " }], metrics: null, language: "en", model: "for-tests-ggml-tiny.en.bin" },
      null,
    ]) {
      const r = await analyze(t);
      expect(ReportSchema.safeParse(r).success).toBe(true);
      expect(r.summary).toMatch(/No speech was recognised/);
      expect(r.confidence_level).toBe("low");
      expect(r.compliance_alerts).toEqual([]);
      expect(r.transcript_highlights).toEqual([]);
    }
  });

  it("requires the recording disclosure within the first 30 s of the call", async () => {
    const at = (t: number) => ({
      segments: [
        { t_start: 0, t_end: 4, speaker: "rep", text: "Hi Sam, thanks for taking the call." },
        { t_start: 5, t_end: t - 1, speaker: "customer", text: "Sure, go on." },
        { t_start: t, t_end: t + 4, speaker: "rep", text: "Before we go on, this call is being recorded." },
      ],
      metrics: null,
      language: "en",
      model: "imported",
    });
    expect((await analyze(at(29.5))).compliance_alerts).toEqual([]);
    const late = await analyze(at(31));
    expect(late.compliance_alerts.map((a) => a.type)).toEqual(["recording_disclosure_late"]);
    expect(late.compliance_alerts[0].detail).toContain("00:31");
    expect(late.compliance_alerts[0].detail).toContain("this call is being recorded");
  });

  it("reads the outcome and the next step from the conversation", async () => {
    const ending = (last: [string, string][]) =>
      timed([
        ["R", "Hi Jo, quick heads up, this call is recorded. How are you handling the rota today?"],
        ["C", "Spreadsheets, mostly."],
        ["R", "Could we do a demo with your manager next Tuesday at two?"],
        ...(last as ["R" | "C", string][]),
      ]);
    const declined = await analyze(ending([["C", "No thanks, we're all set. Please take me off your list."]]));
    expect(declined.call_outcome).toBe("closed_lost");
    expect(declined.score_breakdown.next_steps).toBeLessThanOrEqual(3);
    const accepted = await analyze(ending([["C", "Tuesday at two works, I'll bring her along."]]));
    expect(accepted.call_outcome).toBe("follow_up_scheduled");
    expect(accepted.score_breakdown.next_steps).toBeGreaterThanOrEqual(9);
    const hedged = await analyze(ending([["C", "I don't know her schedule. I'll have her call you if she's interested."]]));
    expect(hedged.call_outcome).toBe("no_decision");
    expect(hedged.score_breakdown.next_steps).toBe(3);
    const won = await analyze(ending([["C", "Honestly, skip the demo. Send me the contract and I'll sign it today."]]));
    expect(won.call_outcome).toBe("closed_won");
    const plainNo = await analyze(ending([["C", "I'll save you the trouble. It's a no."]]));
    expect(plainNo.call_outcome).toBe("closed_lost");
    const keepWhatIHave = await analyze(ending([["C", "Honestly, don't bother. I'll stick with how things are."]]));
    expect(keepWhatIHave.call_outcome).toBe("closed_lost");
    // Not now is not no: a switch put off is left open.
    const notYet = await analyze(ending([["C", "I'm not switching anything until the season's over."]]));
    expect(notYet.call_outcome).toBe("no_decision");
    // "Let's do it" in the turn that takes up the meeting agrees to the meeting, not to a purchase.
    const meeting = await analyze(ending([["C", "Let me look, she's free Tuesday at two. Let's do it."]]));
    expect(meeting.call_outcome).toBe("follow_up_scheduled");
    const purchase = await analyze(ending([["C", "Skip the demo, I've seen enough. Let's do it, send me the order form."]]));
    expect(purchase.call_outcome).toBe("closed_won");
    // A purchase that names when it starts is still a purchase: "starting September" dates the deal, not a meeting.
    const dated = await analyze(ending([["C", "Skip the demo, I've seen enough. Right, let's do it, termly billing starting September."]]));
    expect(dated.call_outcome).toBe("closed_won");
  });

  it("counts a next-step acceptance as a buying signal only when it takes something up", async () => {
    const signals = async (lines: ["R" | "C", string][]) => detections(await analyze(timed(lines))).buying_signals;
    const smallTalk = await signals([
      ["R", "Hi Jo, this call is recorded, is that alright?"],
      ["C", "Yeah, that's fine."],
      ["R", "How are you handling the rota today?"],
      ["C", "Spreadsheets, mostly."],
    ]);
    expect(smallTalk).not.toContain("next_step_acceptance");
    const takenUp = await signals([
      ["R", "Hi Jo, this call is recorded, is that alright?"],
      ["C", "Sure."],
      ["R", "Could we do a demo with your manager next Tuesday at two?"],
      ["C", "Yeah, that's fine."],
    ]);
    expect(takenUp).toContain("next_step_acceptance");
  });

  it("ignores negated claims: a careful advisor raises no alert", async () => {
    const t = timed([
      ["R", "Hi, this call is being recorded. I can't guarantee any return on this fund."],
      ["R", "I would never tell you it's risk-free, and there's no pressure to decide today."],
      ["R", "Please don't give me your card number over the phone."],
    ]);
    expect((await analyze(t)).compliance_alerts).toEqual([]);
  });
});

describe("company tracker overrides", () => {
  const override = (text: string): Company => ({ ...EVAL_COMPANY, settings: { trackers: parseTrackerFile(text) } });

  it("a company tracker changes the result: by pattern, and by examples alone (a classifier trained for it)", async () => {
    const t = timed([
      ["R", "Hi, this call is being recorded. What are you using today?"],
      ["C", "Fine. Before anything, the works council has to agree to any new monitoring tool."],
      ["R", "Understood. And honestly, you can write the whole subscription off on your taxes."],
    ]);
    const before = await analyze(t);
    expect(before.compliance_alerts.map((a) => a.type)).not.toContain("tax_advice");
    expect(detections(before).objections).not.toContain("works_council");
    const company = override(
      JSON.stringify({
        trackers: [
          { id: "claim_tax", category: "prohibited_claim", type: "tax_advice", speaker: "rep", severity: "high", patterns: ["write NEAR/4 off NEAR/6 tax*"] },
          WORKS_COUNCIL_TRACKER,
        ],
      }),
    );
    const r = await analyze(t, company);
    const alert = r.compliance_alerts.find((a) => a.type === "tax_advice");
    expect(alert?.detail).toContain("you can write the whole subscription off on your taxes");
    const objection = r.objections.find((o) => o.objection.startsWith("works_council"));
    expect(objection?.objection).toContain("the works council has to agree to any new monitoring tool");
  });

  it("disabling a built-in removes its alerts", async () => {
    const t = scriptedCall("compliance_investment").transcript;
    const company = override(`{\n  "disable": ["claim_risk_free", "disclosure"]\n}`);
    const types = (await analyze(t, company)).compliance_alerts.map((a) => a.type);
    expect(types).not.toContain("prohibited_risk_free");
    expect(types).toContain("prohibited_guarantee");
  });

  it("refuses a bad tracker file, naming the line at fault", () => {
    const bad = [
      "{",
      '  "trackers": [',
      "    {",
      '      "id": "x",',
      '      "category": "objections",',
      '      "type": "price",',
      '      "phrases": ["too dear"]',
      "    }",
      "  ]",
      "}",
    ].join("\n");
    expect(() => parseTrackerFile(bad, "t.json")).toThrow(TrackerConfigError);
    try {
      parseTrackerFile(bad, "t.json");
    } catch (e) {
      expect((e as Error).message).toMatch(/^t\.json line 5: trackers\.0\.category: /);
    }
    expect(() => parseTrackerFile('{\n  "trackers": [\n    {"id": "a" "category": "objection"}\n  ]\n}', "t.json")).toThrow(/t\.json line 3: invalid JSON/);
    expect(() => parseTrackerFile('{\n  "disable": [\n    "no_such_tracker"\n  ]\n}', "t.json")).toThrow(
      /line 3: disable\.0: "no_such_tracker" is not a built-in tracker/,
    );
    expect(() => parseTrackerFile('{"trackers": [{"id": "a", "category": "objection", "type": "price", "phrases": ["..."]}]}', "t.json")).toThrow(
      /line 1: trackers\.0\.phrases\.0: pattern has no words/,
    );
  });

  it("callreview company update --trackers stores a valid file and refuses a bad one", async () => {
    const { dir, cleanup } = tempDir();
    try {
      await cli(["--data-dir", dir, "company", "create", "Acme"]);
      const good = path.join(dir, "good.json");
      fs.writeFileSync(good, JSON.stringify({ trackers: [{ id: "competitor_acme", category: "objection", type: "competitor", phrases: ["acme"] }] }, null, 2));
      const ok = await cli(["--data-dir", dir, "company", "update", "1", "--trackers", good, "--json"]);
      expect(ok.code).toBe(0);
      expect(json(ok.stdout).settings.trackers.trackers[0]).toMatchObject({ id: "competitor_acme", speaker: "either", patterns: [] });

      const bad = path.join(dir, "bad.json");
      fs.writeFileSync(bad, '{\n  "trackers": [\n    {"id": "x", "category": "objection", "type": "price", "phrases": []}\n  ]\n}');
      const refused = await cli(["--data-dir", dir, "company", "update", "1", "--trackers", bad]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/bad\.json line 3: trackers\.0: a tracker needs examples, patterns or phrases/);
      const after = json((await cli(["--data-dir", dir, "company", "list", "--json"])).stdout);
      expect(after[0].settings.trackers.trackers[0].id).toBe("competitor_acme");

      const cleared = await cli(["--data-dir", dir, "company", "update", "1", "--clear-trackers", "--json"]);
      expect(json(cleared.stdout).settings).toEqual({});
    } finally {
      cleanup();
    }
  });
});
