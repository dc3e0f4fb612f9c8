import type { Transcript, TranscriptSegment } from "../../src/pipeline/ports.js";
import { CALLS } from "../eval/calls.js";

/** The scripted calls back to back until an hour is filled: the rules bench transcript (593 segments). */
export function oneHour(): Transcript {
  const segments: TranscriptSegment[] = [];
  let offset = 0;
  while (offset < 3600) {
    for (const c of CALLS) {
      for (const s of c.transcript.segments) segments.push({ ...s, t_start: s.t_start + offset, t_end: s.t_end + offset });
      offset = (segments.at(-1)?.t_end ?? offset) + 1;
      if (offset >= 3600) break;
    }
  }
  return { segments, metrics: null, language: "en", model: "imported" };
}
