import type { Report } from "../../src/report/schema.js";
import type { Expected } from "./script.js";

export const OBJECTION_TYPES = ["price", "timing", "competitor", "authority", "need", "trust", "contract"];
export const SIGNAL_TYPES = ["implementation", "pricing_terms", "commitment", "next_step_acceptance"];

/** Keyword fallbacks for free-text items written by a language model. */
const OBJECTION_WORDS: Record<string, RegExp> = {
  price: /price|cost|expensive|budget|afford/i,
  timing: /timing|later|quarter|not now|time/i,
  competitor: /competitor|vendor|current (tool|provider)|already use/i,
  authority: /approv|decision|boss|manager|sign.?off|cfo|vp/i,
  need: /need|interest|value|convinc/i,
  trust: /trust|risk|doubt|skeptic|believe|proof/i,
  contract: /contract|term|lock|commit|cancel/i,
};
const SIGNAL_WORDS: Record<string, RegExp> = {
  implementation: /implement|onboard|set ?up|integrat|rollout|timeline/i,
  pricing_terms: /pric|cost|quote|discount|billing|terms/i,
  commitment: /commit|sign|go ahead|contract|order/i,
  next_step_acceptance: /next step|meeting|demo|trial|accept/i,
};

function classify(text: string, types: string[], words: Record<string, RegExp>): string | undefined {
  const prefix = /^([a-z_]+) at /.exec(text)?.[1];
  if (prefix && types.includes(prefix)) return prefix;
  return types.find((t) => words[t].test(text));
}

/** A report -> the detections the harness scores, in the vocabulary of expected.json. */
export function detections(r: Report): Expected {
  const uniq = (xs: (string | undefined)[]) => [...new Set(xs.filter((x): x is string => !!x))].sort();
  return {
    objections: uniq(r.objections.map((o) => classify(o.objection, OBJECTION_TYPES, OBJECTION_WORDS))),
    buying_signals: uniq(r.buying_signals.map((s) => classify(s.signal, SIGNAL_TYPES, SIGNAL_WORDS))),
    compliance: uniq(r.compliance_alerts.map((a) => a.type)),
    next_steps: r.score_breakdown.next_steps >= 7,
    outcome: r.call_outcome,
  };
}

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

export function tally(expected: string[], found: string[]): Tally {
  const tp = found.filter((f) => expected.includes(f)).length;
  return { tp, fp: found.length - tp, fn: expected.filter((e) => !found.includes(e)).length };
}

export function prf(t: Tally): { precision: number; recall: number; f1: number } {
  const precision = t.tp + t.fp === 0 ? 1 : t.tp / (t.tp + t.fp);
  const recall = t.tp + t.fn === 0 ? 1 : t.tp / (t.tp + t.fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
