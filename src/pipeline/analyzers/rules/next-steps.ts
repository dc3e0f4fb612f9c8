import type { TrackerHit } from "../../../trackers/engine.js";
import { readUtterance } from "../../../trackers/text.js";
import { eachFeature } from "../../../trackers/features.js";
import { hitsOf, type Evidence } from "./evidence.js";

export interface NextStepFinding {
  /** The last next step proposed or accepted that no explicit no came after. */
  agreed: TrackerHit | null;
  /** It names a day, date or clock time (not just an owner). */
  dated: boolean;
  /** A next step was proposed, agreed or not. */
  proposed: boolean;
  commitment: TrackerHit | null;
  rejection: TrackerHit | null;
}

const TIME_WORDS = /\b(week|weeks|month|months|tomorrow|tonight|today|morning|afternoon|evening|noon|eod|quarter)\b/i;

const marksMemo = new Map<string, Set<string>>();
/** The shape marks of a text ("@day", "@month", "@clock"…), read once per text: a report asks about the same hits several times. */
function marksOf(text: string): Set<string> {
  let m = marksMemo.get(text);
  if (!m) {
    const found = new Set<string>();
    for (const s of readUtterance(text)) eachFeature(s, (kind, a) => kind === "mark" && found.add(a));
    if (marksMemo.size > 10_000) marksMemo.clear();
    marksMemo.set(text, (m = found));
  }
  return m;
}

function datedText(text: string): boolean {
  const f = marksOf(text);
  return f.has("@day") || f.has("@month") || f.has("@clock") || TIME_WORDS.test(text);
}
const dated = (h: TrackerHit) => datedText(h.sentence);
/** A day or date named, or a clock time after "at" (not a duration such as "thirty-six months", nor a price read as a time). */
function namesTime(text: string): boolean {
  const f = marksOf(text);
  return (
    f.has("@day") ||
    f.has("@month") ||
    /\b(tomorrow|tonight|this afternoon|next week|at (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|\d{1,2}(:\d\d)?))\b/i.test(text)
  );
}

const MEETING =
  /\b(demo|call|meeting|visit|invite|trial|pilot|walkthrough|walk-through|calendar|session|kickoff|kick-off|assessment|survey|consult\w*|appointment|slot)\b/i;

/**
 * A next-step acceptance is a buying signal when it takes up something: it names
 * a time or a meeting itself, or answers a step proposed in the two turns before.
 * A bare "that's fine" answering small talk is not one, nor a hedge.
 */
export function takesUpStep(ev: Evidence, h: TrackerHit): boolean {
  if (h.tracker.type !== "next_step_acceptance") return true;
  // "Let me think about it" after a proposal holds the step off.
  if (HEDGE.test(h.sentence)) return false;
  if (dated(h) || MEETING.test(h.sentence)) return true;
  return hitsOf(ev, "next_step").some((p) => p.segment < h.segment && p.segment >= h.segment - 2);
}

const customer = (h: TrackerHit) => String(h.speaker).toLowerCase() !== "rep";

/** A reply that takes the step up ("Tuesday works", "sure, send it") rather than holding it off ("I don't know his schedule"). */
const YES =
  /^\W*(yes|yeah|yep|yup|sure|ok|okay|sounds good|that works|works|perfect|great|fine|deal|absolutely|definitely|of course|please do|let's do|lets do|go ahead|alright|all right)\b/i;
const HEDGE =
  /\b(i don'?t know|not sure|if (he|she|they|we)('s| is| are)? interested|maybe|we'?ll see|let me think|i'?ll (let you know|get back)|can'?t promise|no promises?|no thanks|not interested|don'?t call|not yet|not right now|not at the moment|hold off|(not|n'?t) (book|schedule|commit to|put) anything|sometime|we'?ll be in touch|i'?ll be in touch|leave it open|leave it with me|i'?ll reach out|i'?ll hit you up|(he|she|they)'?ll call you|let me (talk|speak|check) (to|with)|don'?t put (nothing|anything) on)\b/i;
/**
 * What a purchase names, or how it goes ahead ("put me down for", "we take it", "starting September");
 * "let's do it" or "book it" without one, in a turn that accepts a meeting or names a time, takes up
 * the meeting, not the deal. The go-ahead words: outcome 585 -> 596 of 652 dev calls (12 right, 1 wrong).
 */
const DEAL =
  /\b(sign\w*|contract|agreement|order|paperwork|purchase|buy|po|invoice|docusign|policy|plan|application|deal|renew\w*|switch\w*|seats?|licen[cs]es?|install\w*|set me up|sign me up|go ahead|go with|put (me|us|it) (down|through)|we take|take it|start\w*|launch|lease)\b/i;

/**
 * Where the conversation ended up: the customer's last commitment, last
 * explicit no, and the last next step the customer took up (their own, or
 * the rep's answered with an acceptance) that no explicit no came after.
 */
export function nextSteps(ev: Evidence): NextStepFinding {
  const rejections = hitsOf(ev, "rejection").filter(customer);
  const acceptances = hitsOf(ev, "buying_signal").filter((h) => h.tracker.type === "next_step_acceptance" && customer(h) && takesUpStep(ev, h));
  const proposals = hitsOf(ev, "next_step");
  const answersMeeting = (h: TrackerHit) => acceptances.some((a) => a.segment === h.segment) || namesTime(h.text);
  const commitments = hitsOf(ev, "buying_signal").filter((h) => h.tracker.type === "commitment" && customer(h) && !(answersMeeting(h) && !DEAL.test(h.text)));
  const rejection = rejections.at(-1) ?? null;
  const accepted = (p: TrackerHit): boolean => {
    // A customer naming a time takes a step up only when the model agrees it is a step: "they meet the third Thursday" reports a schedule.
    if (customer(p) && !HEDGE.test(p.text) && (p.reason.score ?? 1) >= 0.5) return true;
    // The customer's next turn, within the two segments after the proposal.
    for (let i = p.segment + 1; i <= Math.min(ev.segments.length - 1, p.segment + 2); i++) {
      const seg = ev.segments[i];
      if (String(seg.speaker).toLowerCase() === "rep") continue;
      if (HEDGE.test(seg.text)) return false;
      return YES.test(seg.text) || acceptances.some((a) => a.segment === i) || commitments.some((c) => c.segment === i);
    }
    return false;
  };
  const agreedSteps = proposals.filter((p) => (!rejection || p.segment > rejection.segment) && accepted(p));
  const agreed = agreedSteps.find(dated) ?? agreedSteps.at(-1) ?? null;
  return { agreed, dated: agreedSteps.some(dated), proposed: proposals.length > 0, commitment: commitments.at(-1) ?? null, rejection };
}
/** call_outcome from the conversation: a commitment wins unless a no came after it; then a dated next step; else an explicit no; else no decision. */
export function outcomeOf(f: NextStepFinding): "closed_won" | "closed_lost" | "follow_up_scheduled" | "no_decision" {
  if (f.commitment && (!f.rejection || f.commitment.segment >= f.rejection.segment)) return "closed_won";
  if (f.rejection && !(f.agreed && f.agreed.segment > f.rejection.segment && f.dated)) return "closed_lost";
  if (f.agreed && f.dated) return "follow_up_scheduled";
  return "no_decision";
}
