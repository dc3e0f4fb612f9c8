import type { TranscriptSegment } from "../../ports.js";
import { clock, type Evidence } from "../rules/evidence.js";

export const SYSTEM_PROMPT = [
  "You review recorded sales calls for sales managers and compliance officers.",
  "Answer with one JSON object that follows the given schema exactly.",
  "Scores in score_breakdown are integers 0-10; overall_score is 0-100 and equals the mean of the breakdown times ten.",
  "Every objection, buying signal, highlight and compliance alert must quote words that were really said, in double quotes, with the time shown in the transcript (mm:ss).",
  "Compliance alerts: missing recording disclosure in the first 30 s, guarantees of returns, risk-free claims, pressure to decide now, requests for card or account numbers.",
  "If the transcript does not support a claim, leave it out.",
].join("\n");

export function formatSegment(s: TranscriptSegment): string {
  return `[${clock(s.t_start)}] ${s.speaker}: ${s.text.trim()}`;
}

/** The rules' findings, handed to the model as evidence it can confirm or correct. */
export function evidenceText(ev: Evidence): string {
  const lines = [
    `Call length ${clock(ev.duration)}, ${ev.segments.length} segments.`,
    ev.talkRatio === null ? "Talk ratio: unknown (speakers not separated)." : `Rep share of talk time: ${Math.round(ev.talkRatio * 100)}% (from ${ev.talkRatioSource}).`,
    "Phrase tracker hits:",
  ];
  const shown = ev.hits.filter((h) => !["price_mention", "hedging"].includes(h.tracker.category)).slice(0, 60);
  for (const h of shown) lines.push(`- ${h.tracker.category}/${h.tracker.type} at ${clock(h.t)} (${h.speaker})`);
  if (shown.length === 0) lines.push("- none");
  return lines.join("\n");
}

export function userPrompt(evidence: string, transcriptLines: string[], part: { index: number; count: number }): string {
  const header = part.count > 1 ? `Transcript part ${part.index + 1} of ${part.count} (analyse this part only):` : "Transcript:";
  return `Evidence from phrase trackers and talk metrics:\n${evidence}\n\n${header}\n${transcriptLines.join("\n")}\n\nWrite the JSON report.`;
}
