import { describe, expect, it } from "vitest";
import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { compiledTrackers } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import type { Transcript } from "../../src/pipeline/ports.js";
import { detect } from "../../src/trackers/engine.js";
import { corpusTranscript, loadSplit } from "../eval/corpus.js";
import { CALLS } from "../eval/calls.js";
import { EVAL_COMPANY, evalCall } from "../eval/run.js";

const dev = loadSplit("dev");
const transcripts: Transcript[] = [...dev.map(corpusTranscript), ...CALLS.map((c) => c.transcript)];
const analyze = (rules: RulesAnalyzer, t: Transcript) =>
  rules.analyze({ call: evalCall(1), company: EVAL_COMPANY, transcript: structuredClone(t) }).then((r) => JSON.stringify(r));

describe("rules analyzer determinism", () => {
  it("has calls to check", () => {
    expect(dev.length).toBeGreaterThan(10);
  });

  it("gives the same report for the same call, whatever was analysed before it and in whichever order", async () => {
    const first = new RulesAnalyzer();
    const forward: string[] = [];
    for (const t of transcripts) forward.push(await analyze(first, t));
    const second = new RulesAnalyzer();
    const backward: string[] = [];
    for (const t of [...transcripts].reverse()) backward.push(await analyze(second, t));
    expect(backward.reverse()).toEqual(forward);
    // Calls differ from each other: the comparison above is not between constant reports.
    expect(new Set(forward).size).toBe(forward.length);
  });

  it("reuses a repeated line's judgement only when judging it afresh gives the same hits", () => {
    const trackers = compiledTrackers(undefined);
    // Each call twice in a row: the second copy of every line is a repeat, judged afresh in explain mode only.
    const segments = transcripts.flatMap((t) => [...t.segments, ...t.segments]);
    const strip = (hs: ReturnType<typeof detect>) => hs.map((h) => ({ ...h, tracker: h.tracker.id, reason: { ...h.reason, features: undefined } }));
    const reused = strip(detect(segments, trackers));
    expect(reused.length).toBeGreaterThan(100);
    expect(reused).toEqual(strip(detect(segments, trackers, { explain: true })));
  });
});
