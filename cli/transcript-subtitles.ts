import type { TranscriptSegment } from "../src/pipeline/ports.js";

/** hh:mm:ss.mmm (WebVTT) or hh:mm:ss,mmm (SubRip). */
function stamp(seconds: number, sep: "." | ","): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`;
}

/** WebVTT with the speaker as a voice tag when it is known (the form the transcript import reads back). */
export function toVtt(segments: TranscriptSegment[]): string {
  const cues = segments.map((s) => `${stamp(s.t_start, ".")} --> ${stamp(s.t_end, ".")}\n${s.speaker === "unknown" ? "" : `<v ${s.speaker}>`}${s.text}`);
  return ["WEBVTT", ...cues].join("\n\n") + "\n";
}

/** SubRip: numbered cues, the speaker as a `speaker: ` prefix when it is known. */
export function toSrt(segments: TranscriptSegment[]): string {
  return segments
    .map((s, i) => `${i + 1}\n${stamp(s.t_start, ",")} --> ${stamp(s.t_end, ",")}\n${s.speaker === "unknown" ? "" : `${s.speaker}: `}${s.text}\n`)
    .join("\n");
}
