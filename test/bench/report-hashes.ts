/**
 * sha256 of every rules report on the dev corpus, the scripted calls and the
 * one-hour bench transcript, plus of the tracker hits with explanations and
 * suppressions (what `trackers test` prints): a speed change to the trackers
 * must leave every hash as it was. `npx tsx test/bench/report-hashes.ts [--write FILE | --check FILE]`.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { compiledTrackers } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { detect, type Suppressed } from "../../src/trackers/engine.js";
import type { Transcript } from "../../src/pipeline/ports.js";
import { corpusTranscript, loadSplit } from "../eval/corpus.js";
import { CALLS } from "../eval/calls.js";
import { EVAL_COMPANY, evalCall } from "../eval/run.js";
import { oneHour } from "./one-hour.js";

const sha = (x: unknown) => crypto.createHash("sha256").update(JSON.stringify(x)).digest("hex");

const inputs: Array<[string, Transcript]> = [
  ...loadSplit("dev").map((c): [string, Transcript] => [`dev/${c.id}`, corpusTranscript(c)]),
  ...CALLS.map((c): [string, Transcript] => [`scripted/${c.id}`, c.transcript]),
  ["bench/one-hour", oneHour()],
];
// The same hour with no line repeated, so no judgement is reused within the call.
const hour = oneHour();
inputs.push(["bench/one-hour-distinct", { ...hour, segments: hour.segments.map((s, k) => ({ ...s, text: `${s.text} Ref ${k}.` })) }]);

const rules = new RulesAnalyzer();
const trackers = compiledTrackers(undefined);
const lines: string[] = [];
for (const [name, t] of inputs) {
  const report = await rules.analyze({ call: evalCall(1), company: EVAL_COMPANY, transcript: structuredClone(t) });
  lines.push(`${sha(report)}  report ${name}`);
  const suppressed: Suppressed[] = [];
  const hits = detect(t.segments, trackers, { explain: true, suppressed });
  lines.push(`${sha({ hits: hits.map((h) => ({ ...h, tracker: h.tracker.id })), suppressed })}  explained ${name}`);
}
const out = `${lines.join("\n")}\n`;
const i = process.argv.indexOf("--write");
const j = process.argv.indexOf("--check");
if (i > 0) fs.writeFileSync(process.argv[i + 1], out);
if (j > 0) {
  const before = fs.readFileSync(process.argv[j + 1], "utf8");
  const diff = out.split("\n").filter((l) => !before.split("\n").includes(l));
  console.log(diff.length ? `${diff.length} hash(es) differ:\n${diff.join("\n")}` : `all ${lines.length} hashes identical`);
  process.exit(diff.length ? 1 : 0);
}
if (i < 0 && j < 0) process.stdout.write(out);
