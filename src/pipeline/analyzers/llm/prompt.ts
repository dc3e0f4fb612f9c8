import type { TranscriptSegment } from "../../ports.js";
import { clock, type Evidence } from "../rules/evidence.js";

export const SYSTEM_PROMPT = [
  "You review recorded sales calls for sales managers and compliance officers.",
  "Answer with one JSON object that follows the given schema exactly.",
  "Scores in score_breakdown are integers 0-10; overall_score is 0-100 and equals the mean of the breakdown times ten.",
  "Every objection, buying signal, highlight and compliance alert must quote words that were really said, in double quotes, with the time shown in the transcript (mm:ss).",
  'Compliance alerts: missing recording disclosure in the first 30 s, guarantees of returns, risk-free claims, pressure to decide now, requests for card or account numbers, misleading absolute claims. Write objections and signals as <type> at mm:ss: "quote".',
  "If the transcript does not support a claim, leave it out.",
].join("\n");

/** Characters of tracker evidence in a prompt (about 200 tokens: the Report schema and the transcript need the rest of a 4096 context). */
const EVIDENCE_CHARS = 600;

export function formatSegment(s: TranscriptSegment): string {
  return `[${clock(s.t_start)}] ${s.speaker}: ${s.text.trim()}`;
}

/** The rules' findings, handed to the model as evidence it can confirm or correct. */
export function evidenceText(ev: Evidence): string {
  const lines = [
    `Call length ${clock(ev.duration)}, ${ev.segments.length} segments.`,
    ev.talkRatio === null
      ? "Talk ratio: unknown (speakers not separated)."
      : `Rep share of talk time: ${Math.round(ev.talkRatio * 100)}% (from ${ev.talkRatioSource}).`,
    "Tracker hits (pattern, or classifier probability p):",
  ];
  const shown = ev.hits.filter((h) => !["price_mention", "hedging", "value", "rapport", "listening", "pain_point"].includes(h.tracker.category));
  // The evidence shares the model's context with the transcript: a fixed budget, compliance and objections first.
  const rank = (c: string) =>
    ["prohibited_claim", "sensitive_data_request", "disclosure"].includes(c) ? 0 : c === "objection" ? 1 : c === "buying_signal" ? 2 : 3;
  let budget = EVIDENCE_CHARS;
  const picked = [...shown]
    .sort((a, b) => rank(a.tracker.category) - rank(b.tracker.category) || a.segment - b.segment)
    .filter(() => {
      const cost = 40;
      return (budget -= cost) >= 0;
    });
  for (const h of shown.filter((x) => picked.includes(x))) {
    // The quote is the transcript line at that time; the evidence names it and says how sure the tracker was.
    const why = h.reason.by === "pattern" ? "pattern" : `p=${h.reason.score?.toFixed(2)}`;
    lines.push(`- ${h.tracker.category}/${h.tracker.type} at ${clock(h.t)} (${h.speaker}, ${why})`);
  }
  if (picked.length < shown.length) lines.push(`- (${shown.length - picked.length} more hits not shown)`);
  if (shown.length === 0) lines.push("- none");
  return lines.join("\n");
}

export function userPrompt(evidence: string, transcriptLines: string[], part: { index: number; count: number }): string {
  const header = part.count > 1 ? `Transcript part ${part.index + 1} of ${part.count} (analyse this part only):` : "Transcript:";
  return `Evidence from phrase trackers and talk metrics:\n${evidence}\n\n${header}\n${transcriptLines.join("\n")}\n\nWrite the JSON report.`;
}
