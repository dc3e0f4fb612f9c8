import type { Transcript } from "../../pipeline/ports.js";
import { findSensitiveSpans, type SensitiveSpan } from "./detect.js";
import type { RedactionKind } from "./kinds.js";

/** One text: the sensitive spans replaced by their tokens. */
export function redactText(text: string, kinds: readonly RedactionKind[]): string {
  return applySpans(text, findSensitiveSpans(text, kinds));
}

/**
 * Redacts a transcript before it is stored. The segments are read as one
 * text (a card number read out across two segments is still found), and each
 * segment gets the token where its part of a span was. Timing, speakers and
 * metrics are kept.
 */
export function redactTranscript<T extends Pick<Transcript, "segments">>(transcript: T, kinds: readonly RedactionKind[]): T {
  if (kinds.length === 0 || transcript.segments.length === 0) return transcript;
  const SEP = "\n";
  const offsets: number[] = [];
  let joined = "";
  for (const seg of transcript.segments) {
    offsets.push(joined.length);
    joined += seg.text + SEP;
  }
  const spans = findSensitiveSpans(joined, kinds);
  if (spans.length === 0) return transcript;
  const segments = transcript.segments.map((seg, i) => {
    const from = offsets[i];
    const to = from + seg.text.length;
    const local = spans
      .filter((s) => s.start < to && from < s.end)
      .map((s) => ({ start: Math.max(s.start, from) - from, end: Math.min(s.end, to) - from, token: s.token }));
    return local.length > 0 ? { ...seg, text: applySpans(seg.text, local) } : seg;
  });
  return { ...transcript, segments };
}

function applySpans(text: string, spans: SensitiveSpan[]): string {
  let out = "";
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at) continue;
    out += text.slice(at, s.start) + s.token;
    at = s.end;
  }
  return out + text.slice(at);
}
