/**
 * `npm run bench:analyze`: rules analyzer reports per second on a one-hour
 * transcript; llama tokens/s and seconds per report for each GGUF in the
 * models dir, and for the stories260K fixture (engine cost only: a 260K
 * parameter model says nothing about real model speed). Medians of several runs.
 * Then the llama engine alone inside the executable against llama.cpp built
 * from the same sources (test/bench/llama-engine.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../src/config.js";
import { LlamaAnalyzer } from "../../src/pipeline/analyzers/llama.js";
import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { scanModels } from "../../src/models/find.js";
import { scriptedCall } from "../eval/calls.js";
import { EVAL_COMPANY, evalCall } from "../eval/run.js";
import { fixturesDir } from "../helpers/fixtures.js";
import { benchLlamaEngine } from "./llama-engine.js";
import { oneHour } from "./one-hour.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function benchRules() {
  const t = oneHour();
  const rules = new RulesAnalyzer();
  const input = { call: evalCall(1), company: EVAL_COMPANY, transcript: t };
  // The first report also loads the NLP model and fills the word -> lemma memo (a vocabulary cache kept for the process).
  const cold = performance.now();
  await rules.analyze(input);
  console.log(`rules: first report in a fresh process (model load, trackers built, vocabulary memo filled): ${(performance.now() - cold).toFixed(0)} ms`);
  const rates: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < 5; run++) {
    const n = 40;
    // A fresh transcript object per report, as in service: nothing cached from the previous report.
    const copies = Array.from({ length: n }, () => structuredClone(t));
    const start = performance.now();
    const c0 = process.cpuUsage();
    for (const transcript of copies) await rules.analyze({ ...input, transcript });
    const c = process.cpuUsage(c0);
    rates.push(n / ((performance.now() - start) / 1000));
    // CPU time (all threads of the process, GC included) does not depend on what else runs on the machine.
    cpu.push((c.user + c.system) / 1000 / n);
  }
  console.log(
    `rules: one-hour transcript (${t.segments.length} segments, ${t.segments.reduce((a, s) => a + s.text.split(/\s+/).length, 0)} words): median ${median(rates).toFixed(1)} reports/s (runs: ${rates.map((r) => r.toFixed(1)).join(", ")}); CPU median ${median(cpu).toFixed(1)} ms/report (runs: ${cpu.map((x) => x.toFixed(1)).join(", ")}); load after ${os.loadavg()[0].toFixed(1)}`,
  );
  // The same hour with no line repeated: every segment judged, none reused from earlier in the call. The
  // segment's number goes inside its last sentence: a sentence of its own would double the sentences judged.
  const distinct = { ...t, segments: t.segments.map((s, k) => ({ ...s, text: s.text.replace(/([.?!]*)$/, ` ${k}$1`) })) };
  const dcpu: number[] = [];
  for (let run = 0; run < 3; run++) {
    const copies = Array.from({ length: 10 }, () => structuredClone(distinct));
    const c0 = process.cpuUsage();
    for (const transcript of copies) await rules.analyze({ ...input, transcript });
    const c = process.cpuUsage(c0);
    dcpu.push((c.user + c.system) / 1000 / copies.length);
  }
  console.log(`rules: same hour, no line repeated: CPU median ${median(dcpu).toFixed(1)} ms/report (runs: ${dcpu.map((x) => x.toFixed(1)).join(", ")})`);
}

async function benchLlama(modelPath: string, note: string, limits?: { maxString: number; maxItems: number }) {
  const analyzer = new LlamaAnalyzer({ modelPath, contextSize: 4096, timeoutSeconds: 1800, limits });
  const input = { call: evalCall(1), company: EVAL_COMPANY, transcript: scriptedCall("good_won").transcript };
  const parts = (await analyzer.plan(input)).length;
  const seconds: number[] = [];
  const tps: number[] = [];
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    await analyzer.analyze(input);
    const s = (performance.now() - start) / 1000;
    seconds.push(s);
    tps.push(analyzer.lastTokens / s);
  }
  console.log(
    `llama ${path.basename(modelPath)}${note}: ${parts} part(s) at context 4096, median ${median(seconds).toFixed(1)} s/report, ${median(tps).toFixed(0)} tokens/s (generated incl. prompt processing time)`,
  );
}

console.log(
  `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown"}), load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}, node ${process.version}`,
);
await benchRules();
if (process.argv.includes("--rules-only")) process.exit(0);
const config = loadConfig({}, process.env);
const ggufs = scanModels(config.modelsDir).gguf;
for (const g of ggufs) await benchLlama(g, "");
const fixtureModel = path.join(fixturesDir, "stories260K.gguf");
if (fs.existsSync(fixtureModel) && !ggufs.includes(fixtureModel))
  await benchLlama(fixtureModel, " (fixture: engine cost only, short output limits)", { maxString: 12, maxItems: 1 });
if (ggufs.length === 0) console.log(`no GGUF in ${config.modelsDir}: real-model figures need one (--models-dir or CALLREVIEW_MODELS_DIR)`);
await benchLlamaEngine();
