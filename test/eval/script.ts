import type { Transcript, TranscriptSegment } from "../../src/pipeline/ports.js";

/** A scripted line: who speaks ("R" rep, "C" customer, "U" unknown on mono audio) and what. */
export type Line = [speaker: "R" | "C" | "U", text: string];

export interface Expected {
  objections: string[];
  buying_signals: string[];
  compliance: string[];
  next_steps: boolean;
  outcome: string;
}

export interface ScriptedCall {
  id: string;
  description: string;
  transcript: Transcript;
  expected: Expected;
}

/**
 * Lines -> timed segments. Speech runs at about 2.6 words per second with a
 * short pause between turns; `startAt` shifts the whole call.
 */
export function timed(lines: Line[], startAt = 0.5): Transcript {
  let t = startAt;
  const segments: TranscriptSegment[] = lines.map(([who, text]) => {
    const words = text.split(/\s+/).length;
    const d = Math.max(1.2, Math.round((words / 2.6) * 100) / 100);
    const seg = {
      t_start: Math.round(t * 100) / 100,
      t_end: Math.round((t + d) * 100) / 100,
      speaker: who === "R" ? "rep" : who === "C" ? "customer" : "unknown",
      text,
    };
    t += d + 0.6;
    return seg;
  });
  return { segments, metrics: null, language: "en", model: "imported" };
}
