import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Transcript, TranscriptSegment } from "../../src/pipeline/ports.js";

/** One labelled call of the evaluation corpus (test/eval/corpus/<split>/<id>.json; format in docs/analyzers.md). */
export interface CorpusLine {
  s: "R" | "C";
  t?: number;
  text: string;
  labels: string[];
}
export interface CorpusCall {
  id: string;
  industry: string;
  description: string;
  outcome: "closed_won" | "follow_up_scheduled" | "closed_lost" | "no_decision";
  next_step_agreed: boolean;
  disclosure: "on_time" | "late" | "missing";
  lines: CorpusLine[];
}

export const CORPUS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "corpus");

export function loadSplit(split: string): CorpusCall[] {
  const dir = path.join(CORPUS_DIR, split);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as CorpusCall);
}

/** The contract's timing: a line without `t` starts when the previous one ends; a line lasts words / 2.6 s + 0.4 s. */
export function corpusTranscript(call: CorpusCall): Transcript {
  let t = 0;
  const segments: TranscriptSegment[] = call.lines.map((l) => {
    const start = l.t ?? t;
    const words = l.text.trim().split(/\s+/).filter(Boolean).length;
    const end = Math.round((start + words / 2.6 + 0.4) * 100) / 100;
    t = end;
    return { t_start: start, t_end: end, speaker: l.s === "R" ? "rep" : "customer", text: l.text };
  });
  return { segments, metrics: null, language: "en", model: "imported" };
}

/** Alert types of the rules analyzer <-> the corpus's breach labels. */
export const BREACH_ALERTS: Record<string, string> = {
  guarantee: "prohibited_guarantee",
  risk_free: "prohibited_risk_free",
  pressure: "pressure_tactics",
  sensitive_data: "payment_data_request",
  absolute_claim: "misleading_absolute_claim",
};

/** A call's expected compliance alerts: its breach labels plus the disclosure verdict. */
export function expectedAlerts(call: CorpusCall): string[] {
  const out = new Set<string>();
  for (const l of call.lines) for (const lab of l.labels) if (lab.startsWith("breach:")) out.add(BREACH_ALERTS[lab.slice(7)] ?? lab);
  if (call.disclosure === "late") out.add("recording_disclosure_late");
  if (call.disclosure === "missing") out.add("recording_disclosure_missing");
  return [...out].sort();
}
