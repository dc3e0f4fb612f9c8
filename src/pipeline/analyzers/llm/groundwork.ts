import type { Report } from "../../../report/schema.js";
import type { AnalyzeInput } from "../../ports.js";
import { buildRulesReport } from "../rules/analyzer.js";
import { gatherEvidence } from "../rules/evidence.js";
import { compiledTrackers } from "../rules/tracker-config.js";
import { disclosureWindow } from "../rules/evidence.js";
import { finalizeLlmReport, type Draft } from "./merge.js";

export type Evidence = ReturnType<typeof gatherEvidence>;
export type FinalizeContext = Parameters<typeof finalizeLlmReport>[2];

/**
 * What every LLM analyzer starts from: the trackers' evidence and the rules
 * report (the model reasons from these facts, and compliance alerts are kept
 * from them). With no speech there is nothing for a model to read, so the
 * finished report is returned at once as `done`.
 */
export function llmGroundwork(input: AnalyzeInput): { ev: Evidence; rules: Report; ctx: FinalizeContext; done?: Report } {
  const ev = gatherEvidence(
    input.transcript,
    compiledTrackers(input.company.settings.trackers),
    disclosureWindow(input.company.settings as Record<string, unknown>),
  );
  const rules = buildRulesReport(input, ev);
  const ctx: FinalizeContext = { transcript: input.transcript, call: input.call, company: input.company };
  return { ev, rules, ctx, done: ev.segments.length === 0 ? finalizeLlmReport(rules as Draft, rules, ctx) : undefined };
}
