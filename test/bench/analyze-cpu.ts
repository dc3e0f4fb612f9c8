/**
 * CPU time of the trackers and the rules analyzer on a one-hour transcript (the
 * scripted calls back to back), and on the same hour with no line repeated: a
 * figure that does not depend on how busy the machine is. `npx tsx test/bench/analyze-cpu.ts`.
 */
import { compiledTrackers } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { detect } from "../../src/trackers/engine.js";
import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { EVAL_COMPANY, evalCall } from "../eval/run.js";
import { oneHour } from "./one-hour.js";
const t = oneHour();
const tr = compiledTrackers(undefined);
detect(t.segments, tr);
const copies = Array.from({ length: 20 }, () => structuredClone(t));
let c0 = process.cpuUsage();
for (const c of copies) detect(c.segments, tr);
let c = process.cpuUsage(c0);
console.log(`detect cpu ms: ${((c.user + c.system) / 1000 / 20).toFixed(1)}`);
// distinct lines: suffix each text with a unique token so no line repeats
const uniq = { ...t, segments: t.segments.map((s, i) => ({ ...s, text: `${s.text} Ref ${i}.` })) };
c0 = process.cpuUsage();
for (let i = 0; i < 5; i++) detect(uniq.segments, tr);
c = process.cpuUsage(c0);
console.log(`detect cpu ms, no repeated line: ${((c.user + c.system) / 1000 / 5).toFixed(1)}`);
const rules = new RulesAnalyzer();
c0 = process.cpuUsage();
for (const cp of copies) await rules.analyze({ call: evalCall(1), company: EVAL_COMPANY, transcript: cp });
c = process.cpuUsage(c0);
console.log(`analyze cpu ms: ${((c.user + c.system) / 1000 / 20).toFixed(1)}`);
