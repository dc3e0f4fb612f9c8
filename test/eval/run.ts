/**
 * `npm run eval`: each available analyzer on the labelled corpus
 * (test/eval/corpus/<split>/*.json), dev and test printed apart (test only
 * when its files exist), then on the older scripted calls at call level.
 * Rules always; llama when CALLREVIEW_LLM_MODEL (or --llm-model) names a
 * GGUF; ollama when CALLREVIEW_OLLAMA_MODEL is set and the server answers.
 * `--misses` lists every call-level miss; `--split dev` (or test) scores one
 * split only, so tuning work on dev never prints the test figures.
 */
import { loadConfig } from "../../src/config.js";
import { analyzerFor, chooseAnalyzer, llmModelPath, type AnalyzerChoice } from "../../src/pipeline/analyzers/factory.js";
import { checkOllama } from "../../src/pipeline/analyzers/ollama.js";
import type { Analyzer } from "../../src/pipeline/ports.js";
import fs from "node:fs";
import { EVAL_COMPANY, evalCall } from "./eval-company.js";
import { CALLS } from "./calls.js";
import { HELD_OUT } from "./held-out.js";
import type { ScriptedCall } from "./script.js";
import { detections, prf, tally, type Tally } from "./detections.js";
import { loadSplit } from "./corpus.js";
import { printFigures, scoreCorpus } from "./score-corpus.js";

export { EVAL_COMPANY, evalCall };

export async function evaluate(analyzer: Analyzer, log = false, calls: ScriptedCall[] = CALLS, label = "scripted calls") {
  const totals: Record<string, Tally> = {
    objections: { tp: 0, fp: 0, fn: 0 },
    buying_signals: { tp: 0, fp: 0, fn: 0 },
    compliance: { tp: 0, fp: 0, fn: 0 },
    next_steps: { tp: 0, fp: 0, fn: 0 },
  };
  let outcomes = 0;
  let cleanFalseAlarms = 0;
  const misses: string[] = [];
  for (const [i, c] of calls.entries()) {
    const r = await analyzer.analyze({ call: evalCall(i + 1), company: EVAL_COMPANY, transcript: c.transcript });
    const d = detections(r);
    for (const k of ["objections", "buying_signals", "compliance"] as const) {
      const t = tally(c.expected[k], d[k]);
      totals[k].tp += t.tp;
      totals[k].fp += t.fp;
      totals[k].fn += t.fn;
      if (t.fp || t.fn) misses.push(`${c.id} ${k}: expected [${c.expected[k].join(", ")}] got [${d[k].join(", ")}]`);
    }
    const ns = tally(c.expected.next_steps ? ["yes"] : [], d.next_steps ? ["yes"] : []);
    totals.next_steps.tp += ns.tp;
    totals.next_steps.fp += ns.fp;
    totals.next_steps.fn += ns.fn;
    if (ns.fp || ns.fn) misses.push(`${c.id} next_steps: expected ${c.expected.next_steps} got ${d.next_steps}`);
    if (d.outcome === c.expected.outcome) outcomes++;
    else misses.push(`${c.id} outcome: expected ${c.expected.outcome} got ${d.outcome}`);
    if (c.expected.compliance.length === 0 && d.compliance.length > 0) cleanFalseAlarms++;
  }
  const rows = Object.entries(totals).map(([k, t]) => ({ category: k, ...t, ...prf(t) }));
  if (log) {
    console.log(`\n${analyzer.name}: ${calls.length} ${label}`);
    console.log("category        tp  fp  fn  precision  recall  F1");
    for (const r of rows)
      console.log(
        `${r.category.padEnd(15)} ${String(r.tp).padStart(3)} ${String(r.fp).padStart(3)} ${String(r.fn).padStart(3)}  ${r.precision.toFixed(2).padStart(9)}  ${r.recall.toFixed(2).padStart(6)}  ${r.f1.toFixed(2)}`,
      );
    console.log(`outcome accuracy ${outcomes}/${calls.length}; compliance false alarms on clean calls: ${cleanFalseAlarms}`);
    if (misses.length) console.log(`misses:\n  ${misses.join("\n  ")}`);
  }
  return { rows, outcomes, cleanFalseAlarms, misses };
}

async function main() {
  const config = loadConfig({}, process.env);
  const choices: AnalyzerChoice[] = [{ configured: "rules", active: "rules", model: null, reason: "always" }];
  const gguf = llmModelPath(config);
  if (gguf && fs.existsSync(gguf)) choices.push({ configured: "llama", active: "llama", model: gguf, reason: "present" });
  else console.log("llama: skipped (set CALLREVIEW_LLM_MODEL to a GGUF to evaluate it)");
  if (config.ollamaModel && (await checkOllama(config.ollamaUrl, config.ollamaModel)).ok) choices.push(await chooseAnalyzer({ ...config, analyzer: "ollama" }));
  else console.log("ollama: skipped (set CALLREVIEW_OLLAMA_MODEL and run an Ollama server to evaluate it)");
  for (const c of choices) {
    const analyzer = analyzerFor({ config }, c);
    console.log(`\n######## analyzer: ${analyzer.name}`);
    const only = process.argv.indexOf("--split");
    for (const split of only > 0 ? [process.argv[only + 1]] : ["dev", "test"]) {
      const calls = loadSplit(split);
      if (calls.length === 0) {
        console.log(`\n== ${split}: no files in test/eval/corpus/${split}`);
        continue;
      }
      const f = await scoreCorpus(calls, analyzer);
      printFigures(split, f);
      if (process.argv.includes("--misses")) console.log(`misses:\n  ${f.misses.join("\n  ")}`);
    }
    await evaluate(analyzer, true, CALLS, "older scripted calls (call level; used for tuning, so dev)");
    await evaluate(analyzer, true, HELD_OUT, "older held-out calls (call level; dev since the trackers were rewritten)");
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) await main();
