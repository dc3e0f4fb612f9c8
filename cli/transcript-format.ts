import type { TalkMetrics, Transcript } from "../src/pipeline/ports.js";

/** mm:ss (h:mm:ss past an hour) for a time in seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh > 0 ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${String(mm).padStart(2, "0")}:${ss}`;
}

function metricsLines(m: TalkMetrics): string[] {
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  const lines = [`  talk       ${m.speech_seconds.toFixed(1)} s of speech in ${m.duration_seconds.toFixed(1)} s, silence ${pct(m.silence_share)}`];
  if (m.talk_ratio !== null || m.rep_talk_seconds !== null) {
    lines.push(
      `  rep        ${m.rep_talk_seconds?.toFixed(1)} s talking, longest monologue ${m.longest_monologue_rep_seconds?.toFixed(1)} s`,
      `  customer   ${m.customer_talk_seconds?.toFixed(1)} s talking, longest monologue ${m.longest_monologue_customer_seconds?.toFixed(1)} s`,
      `  ratio      ${m.talk_ratio === null ? "-" : `${pct(m.talk_ratio)} rep`}, ${m.turns} turns, ${m.overlap_seconds?.toFixed(1)} s overlap`,
    );
  } else {
    lines.push("  speakers   mono recording: no rep/customer split");
  }
  return lines;
}

/** A transcript for the terminal: metrics, then one line per segment `[mm:ss] speaker: text`. */
export function formatTranscript(t: Transcript): string {
  const lines = [`Transcript (${t.model ?? "imported"}${t.language ? `, ${t.language}` : ""})`];
  if (t.metrics) lines.push(...metricsLines(t.metrics));
  if (t.segments.length === 0) lines.push("  (no words recognised)");
  const width = Math.max(0, ...t.segments.map((s) => String(s.speaker).length));
  for (const s of t.segments) lines.push(`  [${clock(s.t_start)}] ${String(s.speaker).padEnd(width)}  ${s.text}`);
  return lines.join("\n");
}
