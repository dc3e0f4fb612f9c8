import type { TalkMetrics } from "./ports.js";
import { anyWithin, overlapSeconds, totalSeconds, unionSpans, type Span } from "./speech-spans.js";

/** A pause longer than this ends a monologue even when nobody else speaks. */
export const MONOLOGUE_MAX_PAUSE_SECONDS = 2;

export type SpeechBySpeaker = { kind: "stereo"; rep: Span[]; customer: Span[] } | { kind: "mono"; speech: Span[] };

const round2 = (n: number) => Math.round(n * 100) / 100;
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * Talk metrics from voice activity (definitions in docs/transcription.md):
 * - talk seconds: union of a speaker's speech spans;
 * - talk_ratio: rep / (rep + customer) talk seconds (null when nobody speaks);
 * - longest monologue: the longest run of one speaker's spans with no speech of
 *   the other speaker in between and no pause over 2 s, first start to last end;
 * - turns: how often the floor passes from one speaker to the other (spans of
 *   one speaker lying wholly inside the other's speech, i.e. backchannels, do not count);
 * - overlap: seconds both speak at once;
 * - silence_share: share of the call in which nobody speaks.
 * Mono audio has no speakers, so those fields are null.
 */
export function computeTalkMetrics(durationSeconds: number, speech: SpeechBySpeaker): TalkMetrics {
  const duration = Math.max(0, durationSeconds);
  const all = unionSpans(speech.kind === "stereo" ? [...speech.rep, ...speech.customer] : speech.speech);
  const speechSeconds = Math.min(duration, totalSeconds(all));
  const base = {
    duration_seconds: round2(duration),
    speech_seconds: round2(speechSeconds),
    silence_share: duration > 0 ? round4(1 - speechSeconds / duration) : 0,
  };
  if (speech.kind === "mono") {
    return {
      ...base,
      rep_talk_seconds: null,
      customer_talk_seconds: null,
      talk_ratio: null,
      longest_monologue_rep_seconds: null,
      longest_monologue_customer_seconds: null,
      turns: null,
      overlap_seconds: null,
    };
  }
  const rep = unionSpans(speech.rep);
  const customer = unionSpans(speech.customer);
  const repSeconds = totalSeconds(rep);
  const customerSeconds = totalSeconds(customer);
  return {
    ...base,
    rep_talk_seconds: round2(repSeconds),
    customer_talk_seconds: round2(customerSeconds),
    talk_ratio: repSeconds + customerSeconds > 0 ? round4(repSeconds / (repSeconds + customerSeconds)) : null,
    longest_monologue_rep_seconds: round2(longestMonologue(rep, customer)),
    longest_monologue_customer_seconds: round2(longestMonologue(customer, rep)),
    turns: countTurns(rep, customer),
    overlap_seconds: round2(overlapSeconds(rep, customer)),
  };
}

function longestMonologue(own: Span[], other: Span[]): number {
  let best = 0;
  let runStart = -1;
  let runEnd = -1;
  for (const s of own) {
    const continues = runStart >= 0 && s.start - runEnd <= MONOLOGUE_MAX_PAUSE_SECONDS && !anyWithin(other, runEnd, s.start);
    if (!continues) runStart = s.start;
    runEnd = s.end;
    best = Math.max(best, runEnd - runStart);
  }
  return best;
}

function countTurns(rep: Span[], customer: Span[]): number {
  const inside = (s: Span, others: Span[]) => others.some((o) => o.start <= s.start && o.end >= s.end);
  const floor = [
    ...rep.filter((s) => !inside(s, customer)).map((s) => ({ ...s, who: "rep" })),
    ...customer.filter((s) => !inside(s, rep)).map((s) => ({ ...s, who: "customer" })),
  ].sort((a, b) => a.start - b.start);
  let turns = 0;
  for (let i = 1; i < floor.length; i++) if (floor[i].who !== floor[i - 1].who) turns++;
  return turns;
}
