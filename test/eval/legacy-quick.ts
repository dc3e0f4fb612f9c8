import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { CALLS, scriptedCall } from "./calls.js";
import { HELD_OUT } from "./held-out.js";
import { EVAL_COMPANY, evalCall } from "./run.js";
const id = process.argv[2];
for (const c of [...CALLS, ...HELD_OUT]) {
  if (id && c.id !== id) continue;
  const r = await new RulesAnalyzer().analyze({ call: evalCall(1), company: EVAL_COMPANY, transcript: c.transcript });
  console.log(c.id, JSON.stringify({ o: r.objections.map((x) => x.objection.slice(0, 90)), s: r.buying_signals.map((x) => x.signal.slice(0, 90)), a: r.compliance_alerts.map((x) => x.type + ": " + x.detail.slice(0, 100)), out: r.call_outcome, ns: r.score_breakdown.next_steps }, null, 1));
}
