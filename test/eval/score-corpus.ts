import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { compiledTrackers } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { detect, type TrackerHit } from "../../src/trackers/engine.js";
import type { Analyzer } from "../../src/pipeline/ports.js";
import type { Report } from "../../src/report/schema.js";
import type { Company } from "../../src/store/companies.js";
import { EVAL_COMPANY, evalCall } from "./eval-company.js";
import { BREACH_ALERTS, corpusTranscript, expectedAlerts, type CorpusCall } from "./corpus.js";
import { prf, type Tally } from "./detections.js";

/** A tracker hit -> the corpus label it stands for (null: a tracker the corpus does not label). */
export function labelOfHit(h: TrackerHit): string | null {
  const { category, type } = h.tracker;
  if (category === "objection") return `objection:${type}`;
  if (category === "buying_signal") return `signal:${type}`;
  if (category === "next_step") return "next_step";
  if (category === "discovery") return "discovery_question";
  if (category === "disclosure") return "disclosure";
  if (category === "prohibited_claim" || category === "sensitive_data_request") {
    const breach = Object.entries(BREACH_ALERTS).find(([, alert]) => alert === type)?.[0];
    return breach ? `breach:${breach}` : null;
  }
  return null;
}

const typeOf = (text: string) => /^([a-z_]+) at /.exec(text)?.[1] ?? "?";

/** What a report says, in corpus labels, per call (type anywhere in the call). */
export function callDetections(r: Report): Set<string> {
  const out = new Set<string>();
  for (const o of r.objections) out.add(`objection:${typeOf(o.objection)}`);
  for (const s of r.buying_signals) out.add(`signal:${typeOf(s.signal)}`);
  for (const a of r.compliance_alerts) {
    const breach = Object.entries(BREACH_ALERTS).find(([, alert]) => alert === a.type)?.[0];
    if (breach) out.add(`breach:${breach}`);
  }
  return out;
}

export interface CorpusFigures {
  calls: number;
  lines: number;
  /** Call-level: a label type detected anywhere in the call vs labelled anywhere in it. */
  callLevel: Record<string, Tally>;
  /** Utterance-level: the line a tracker fired on vs the line's labels. */
  lineLevel: Record<string, Tally>;
  breachRecall: { found: number; expected: number };
  cleanCalls: number;
  cleanFalseAlarms: number;
  disclosureRight: number;
  outcomeRight: number;
  nextStepRight: number;
  misses: string[];
}

const add = (m: Record<string, Tally>, k: string, field: keyof Tally) => ((m[k] ??= { tp: 0, fp: 0, fn: 0 })[field] += 1);

function sum(m: Record<string, Tally>, prefix: string): Tally {
  const t = { tp: 0, fp: 0, fn: 0 };
  for (const [k, v] of Object.entries(m)) {
    if (!k.startsWith(prefix)) continue;
    t.tp += v.tp;
    t.fp += v.fp;
    t.fn += v.fn;
  }
  return t;
}

export function groupTally(m: Record<string, Tally>, prefix: string): Tally {
  return sum(m, prefix);
}

/** Figures before any call is scored; pooled folds start from it too (test/eval/cv.ts). */
export function emptyFigures(calls = 0): CorpusFigures {
  return {
    calls,
    lines: 0,
    callLevel: {},
    lineLevel: {},
    breachRecall: { found: 0, expected: 0 },
    cleanCalls: 0,
    cleanFalseAlarms: 0,
    disclosureRight: 0,
    outcomeRight: 0,
    nextStepRight: 0,
    misses: [],
  };
}

export async function scoreCorpus(calls: CorpusCall[], analyzer: Analyzer = new RulesAnalyzer(), company: Company = EVAL_COMPANY): Promise<CorpusFigures> {
  const f = emptyFigures(calls.length);
  const trackers = compiledTrackers(company.settings.trackers);
  for (const [n, call] of calls.entries()) {
    const transcript = corpusTranscript(call);
    const r = await analyzer.analyze({ call: evalCall(n + 1), company, transcript });
    f.lines += call.lines.length;
    scoreCallLevel(f, call, r);
    scoreLineLevel(f, call, detect(transcript.segments, trackers));
    scoreVerdicts(f, call, r);
  }
  return f;
}

/** Call level: objection / signal / breach types. */
function scoreCallLevel(f: CorpusFigures, call: CorpusCall, r: Report): void {
  const expected = new Set(call.lines.flatMap((l) => l.labels).filter((l) => /^(objection|signal|breach):/.test(l)));
  const found = callDetections(r);
  for (const k of found) add(f.callLevel, k, expected.has(k) ? "tp" : "fp");
  for (const k of expected) if (!found.has(k)) add(f.callLevel, k, "fn");
  const wrong = [...found]
    .filter((k) => !expected.has(k))
    .map((k) => `+${k}`)
    .concat([...expected].filter((k) => !found.has(k)).map((k) => `-${k}`));
  if (wrong.length) f.misses.push(`${call.id}: ${wrong.join(" ")}`);
  for (const k of expected) {
    if (!k.startsWith("breach:")) continue;
    f.breachRecall.expected++;
    if (found.has(k)) f.breachRecall.found++;
  }
}

/** Line level, from the trackers themselves. */
function scoreLineLevel(f: CorpusFigures, call: CorpusCall, hits: TrackerHit[]): void {
  call.lines.forEach((line, i) => {
    const got = new Set(
      hits
        .filter((h) => h.segment === i)
        .map(labelOfHit)
        .filter((x): x is string => !!x),
    );
    const want = new Set(line.labels);
    for (const k of got) add(f.lineLevel, k, want.has(k) ? "tp" : "fp");
    for (const k of want) if (!got.has(k)) add(f.lineLevel, k, "fn");
  });
}

/** Whole-call verdicts: alerts on clean calls, disclosure timing, outcome, next step. */
function scoreVerdicts(f: CorpusFigures, call: CorpusCall, r: Report): void {
  const alerts = r.compliance_alerts.map((a) => a.type).sort();
  const clean = expectedAlerts(call).length === 0;
  if (clean) {
    f.cleanCalls++;
    if (alerts.length) {
      f.cleanFalseAlarms++;
      f.misses.push(`${call.id}: false alarm on a clean call: ${alerts.join(", ")}`);
    }
  }
  const disclosure = alerts.includes("recording_disclosure_missing") ? "missing" : alerts.includes("recording_disclosure_late") ? "late" : "on_time";
  if (disclosure === call.disclosure) f.disclosureRight++;
  else f.misses.push(`${call.id}: disclosure ${disclosure}, labelled ${call.disclosure}`);
  if (r.call_outcome === call.outcome) f.outcomeRight++;
  else f.misses.push(`${call.id}: outcome ${r.call_outcome}, labelled ${call.outcome}`);
  const agreed = r.score_breakdown.next_steps >= 7;
  if (agreed === call.next_step_agreed) f.nextStepRight++;
  else f.misses.push(`${call.id}: next step agreed ${agreed}, labelled ${call.next_step_agreed}`);
}

export function printFigures(split: string, f: CorpusFigures, log: (s: string) => void = console.log): void {
  const row = (name: string, t: Tally) => {
    const p = prf(t);
    return `${name.padEnd(30)} ${String(t.tp).padStart(4)} ${String(t.fp).padStart(4)} ${String(t.fn).padStart(4)}  ${p.precision.toFixed(2).padStart(9)}  ${p.recall.toFixed(2).padStart(6)}  ${p.f1.toFixed(2)}`;
  };
  const header = `${"category".padEnd(30)}   tp   fp   fn  precision  recall  F1`;
  log(`\n== ${split}: ${f.calls} calls, ${f.lines} labelled lines ==`);
  for (const [title, m] of [
    ["per call (type detected anywhere in the call vs labelled in it)", f.callLevel],
    ["per line (the line a tracker fired on vs the line's labels)", f.lineLevel],
  ] as const) {
    log(`\n${title}`);
    log(header);
    for (const group of ["objection:", "signal:", "breach:", ...(m === f.lineLevel ? ["next_step", "discovery_question", "disclosure"] : [])]) {
      const keys = Object.keys(m)
        .filter((k) => k.startsWith(group))
        .sort();
      if (group.endsWith(":")) for (const k of keys) log(row(`  ${k}`, m[k]));
      log(row(group.endsWith(":") ? `${group.slice(0, -1)}s (all)` : group, sum(m, group)));
    }
  }
  const pct = (a: number, b: number) => `${a}/${b} (${b ? ((100 * a) / b).toFixed(0) : "-"} %)`;
  log("");
  log(`breach recall (per call and type):   ${pct(f.breachRecall.found, f.breachRecall.expected)}`);
  log(`false alarms on clean calls:         ${f.cleanFalseAlarms} of ${f.cleanCalls} clean calls`);
  log(`disclosure right:                    ${pct(f.disclosureRight, f.calls)}`);
  log(`outcome right:                       ${pct(f.outcomeRight, f.calls)}`);
  log(`next step agreed right:              ${pct(f.nextStepRight, f.calls)}`);
}
