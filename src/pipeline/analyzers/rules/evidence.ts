import type { TalkMetrics, Transcript, TranscriptSegment } from "../../ports.js";
import { detect, roleOf, type CompiledTracker, type TrackerHit } from "../../../trackers/engine.js";
import type { TrackerCategory } from "../../../trackers/format.js";

/** Disclosure must come this early (seconds from the start of the call) unless the company sets its own window. */
export const DISCLOSURE_WINDOW_SECONDS = 30;

/** The company's disclosure window (settings.disclosure_window_seconds), else the default. */
export function disclosureWindow(settings: Record<string, unknown> | undefined): number {
  const w = settings?.disclosure_window_seconds;
  return typeof w === "number" && Number.isFinite(w) && w > 0 ? w : DISCLOSURE_WINDOW_SECONDS;
}

/** What the rules see in a transcript: tracker hits and talk figures. The LLM analyzers get this too. */
export interface Evidence {
  segments: TranscriptSegment[];
  hits: TrackerHit[];
  byCategory: Map<TrackerCategory, TrackerHit[]>;
  duration: number;
  /** rep share of talk time 0..1, null when speakers are unknown. */
  talkRatio: number | null;
  talkRatioSource: "metrics" | "segments" | null;
  repQuestions: number;
  speakersKnown: boolean;
  /** Seconds from the start within which the rep must disclose the recording. */
  disclosureWindow: number;
}

export function spokenSegments(transcript: Transcript | null): TranscriptSegment[] {
  return (transcript?.segments ?? []).filter((s) => s.text.trim().length > 0);
}

export function gatherEvidence(transcript: Transcript | null, trackers: CompiledTracker[], window = DISCLOSURE_WINDOW_SECONDS): Evidence {
  const segments = spokenSegments(transcript);
  const hits = detect(segments, trackers);
  const byCategory = new Map<TrackerCategory, TrackerHit[]>();
  for (const h of hits) {
    const list = byCategory.get(h.tracker.category) ?? [];
    list.push(h);
    byCategory.set(h.tracker.category, list);
  }
  const duration = Math.max(transcript?.metrics?.duration_seconds ?? 0, segments.length ? segments[segments.length - 1].t_end : 0);
  const { ratio, source } = talkRatio(segments, transcript?.metrics ?? null);
  return {
    segments,
    hits,
    byCategory,
    duration,
    talkRatio: ratio,
    talkRatioSource: source,
    repQuestions: segments.filter((s) => roleOf(String(s.speaker)) !== "customer" && s.text.includes("?")).length,
    speakersKnown: segments.some((s) => roleOf(String(s.speaker)) !== "unknown"),
    disclosureWindow: window,
  };
}

/** Real talk time from the voice-activity metrics when they exist; segment durations otherwise. */
function talkRatio(segments: TranscriptSegment[], metrics: TalkMetrics | null): { ratio: number | null; source: Evidence["talkRatioSource"] } {
  if (metrics?.talk_ratio !== null && metrics?.talk_ratio !== undefined) return { ratio: metrics.talk_ratio, source: "metrics" };
  let rep = 0;
  let customer = 0;
  for (const s of segments) {
    const d = Math.max(0, s.t_end - s.t_start);
    const role = roleOf(String(s.speaker));
    if (role === "rep") rep += d;
    else if (role === "customer") customer += d;
  }
  return rep + customer > 0 ? { ratio: rep / (rep + customer), source: "segments" } : { ratio: null, source: null };
}

export function hitsOf(ev: Evidence, category: TrackerCategory): TrackerHit[] {
  return ev.byCategory.get(category) ?? [];
}

export function clock(t: number): string {
  const s = Math.max(0, Math.floor(t));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** A quote short enough for a report field, cut on a word boundary. */
export function quote(text: string, max = 200): string {
  const t = text.trim().replace(/\s+/g, " ");
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2))}…`;
}
