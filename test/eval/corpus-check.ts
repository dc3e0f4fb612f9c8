import { BREACH_ALERTS, type CorpusCall, corpusTranscript } from "./corpus.js";
import { OBJECTION_TYPES, SIGNAL_TYPES } from "./detections.js";

/** The corpus's closed label set (docs/analyzers.md, "Evaluation"). */
export const CORPUS_LABELS = new Set([
  ...OBJECTION_TYPES.map((t) => `objection:${t}`),
  ...SIGNAL_TYPES.map((t) => `signal:${t}`),
  "next_step",
  "discovery_question",
  "disclosure",
  ...Object.keys(BREACH_ALERTS).map((t) => `breach:${t}`),
]);

const OUTCOMES = new Set(["closed_won", "follow_up_scheduled", "closed_lost", "no_decision"]);

function lineProblems(c: CorpusCall): string[] {
  const out: string[] = [];
  c.lines.forEach((l, i) => {
    if (l.s !== "R" && l.s !== "C") out.push(`line ${i}: s must be R or C`);
    for (const lab of l.labels) {
      if (!CORPUS_LABELS.has(lab)) out.push(`line ${i}: unknown label ${lab}`);
      if (/^(objection|signal):/.test(lab) && l.s !== "C") out.push(`line ${i}: ${lab} is a customer label`);
      if (/^(breach:|disclosure|discovery_question)/.test(lab) && l.s !== "R") out.push(`line ${i}: ${lab} is a rep label`);
    }
  });
  return out;
}

/** Where the call's first disclosure starts, by the corpus timing rule; null when there is none. */
function firstDisclosure(c: CorpusCall): number | null {
  const segments = corpusTranscript(c).segments;
  const i = c.lines.findIndex((l) => l.labels.includes("disclosure"));
  return i < 0 ? null : segments[i].t_start;
}

/**
 * What a labelled call must satisfy to be scored: the closed label set, labels
 * on the right speaker, and call fields that agree with the lines (a disclosure
 * verdict that matches the first disclosure's time, a commitment in a won call,
 * a next-step line when one was agreed). Empty when the call is well formed.
 */
export function corpusProblems(c: CorpusCall, fileId: string): string[] {
  const out: string[] = [];
  if (c.id !== fileId) out.push(`id ${c.id} differs from the file name`);
  if (!OUTCOMES.has(c.outcome)) out.push(`unknown outcome ${c.outcome}`);
  if (typeof c.next_step_agreed !== "boolean") out.push("next_step_agreed must be true or false");
  if (!c.industry || !c.description) out.push("industry and description are needed");
  if (c.lines.length < 20) out.push(`${c.lines.length} lines (at least 20)`);
  out.push(...lineProblems(c));
  const at = firstDisclosure(c);
  if (c.disclosure === "on_time" && (at === null || at > 30)) out.push(`on_time, but the first disclosure is at ${at}`);
  if (c.disclosure === "late" && (at === null || at <= 30)) out.push(`late, but the first disclosure is at ${at}`);
  if (c.disclosure === "missing" && at !== null) out.push("missing, but a line is labelled disclosure");
  if (c.outcome === "closed_won" && !c.lines.some((l) => l.labels.includes("signal:commitment"))) out.push("closed_won without a signal:commitment line");
  if (c.next_step_agreed && !c.lines.some((l) => l.labels.includes("next_step"))) out.push("next_step_agreed without a next_step line");
  return out;
}
