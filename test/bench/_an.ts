import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { EVAL_COMPANY, evalCall } from "../eval/run.js";
import { oneHour } from "./one-hour.js";
const t = oneHour();
const rules = new RulesAnalyzer();
await rules.analyze({ call: evalCall(1), company: EVAL_COMPANY, transcript: t });
const copies = Array.from({ length: 100 }, () => structuredClone(t));
const c0 = process.cpuUsage(); for (const c of copies) await rules.analyze({ call: evalCall(1), company: EVAL_COMPANY, transcript: c }); const c = process.cpuUsage(c0);
console.log("analyze cpu ms", ((c.user + c.system) / 1000 / 100).toFixed(2));
