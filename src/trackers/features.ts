import { isNumberWord, readUtterance, type Sentence } from "./text.js";

const DAYS = new Set([
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "tomorrow",
  "today",
  "tonight",
  "weekend",
  "morning",
  "afternoon",
  "evening",
  "eod",
  "noon",
]);
const MONTHS = new Set([
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
  "jan",
  "feb",
  "mar",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
]);
const CLOCK = new Set(["am", "pm", "oclock", "thirty", "fifteen", "quarter", "half"]);
/** Function words say nothing alone ("that", "a", "to"): they take part in bigrams, not as features of their own. */
const FUNCTION_WORDS = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "and",
  "or",
  "that",
  "this",
  "it",
  "in",
  "on",
  "at",
  "for",
  "with",
  "by",
  "from",
  "as",
  "be",
  "do",
  "have",
  "i",
  "we",
  "you",
  "he",
  "she",
  "they",
  "me",
  "us",
  "him",
  "her",
  "them",
  "my",
  "our",
  "your",
  "his",
  "their",
  "its",
  "so",
  "but",
  "if",
  "is",
  "there",
  "what",
  "would",
  "will",
  "can",
  "could",
  "just",
  "about",
  "up",
  "out",
  "all",
  "some",
  "any",
]);

/** Fillers carry no meaning for any tracker; dropping them keeps bigrams about content. */
const FILLERS = new Set([
  "um",
  "uh",
  "uhh",
  "umm",
  "er",
  "erm",
  "hmm",
  "like",
  "yeah",
  "oh",
  "well",
  "so",
  "okay",
  "ok",
  "right",
  "just",
  "honestly",
  "basically",
  "actually",
  "really",
  "mean",
  "know",
  "kinda",
  "sort",
  "kind",
  "the",
  "a",
  "an",
]);

/** What a customer line answers: the rep's line just before it, as features ("<price", "<@question"). */
export interface LineContext {
  prev?: string[];
}
export const NO_CONTEXT: LineContext = {};

/**
 * The rep line a customer line replies to, read as context features: the
 * same words mean different things after "what do you use today?" (an
 * answer naming a vendor) and after the price (a reaction to it). Learned
 * from the labelled calls, where each customer line is read with the rep
 * line before it; the library's examples have none.
 */
export function contextOf(prevText: string | undefined, read: Sentence[] = prevText ? readUtterance(prevText) : []): LineContext {
  if (!prevText) return NO_CONTEXT;
  const out = new Set<string>();
  for (const s of read) for (const t of s.tokens) if (!t.punct && !FUNCTION_WORDS.has(t.lemma) && !FILLERS.has(t.norm)) out.add(`<${t.lemma}`);
  if (prevText.includes("?")) out.add("<@question");
  return { prev: [...out] };
}

/**
 * A sentence -> the classifier's features: lemmas (marked "!" inside a
 * negation), lemma bigrams, a few shape marks (question, conditional,
 * number, weekday/clock/month words), and the line's context. De-duplicated,
 * in the order they were found: the same sentence always gives the same list.
 */
export function sentenceFeatures(s: Sentence, context: LineContext = NO_CONTEXT): string[] {
  const f = new Set<string>();
  const words = s.words;
  const content = words.filter((t) => !FILLERS.has(t.norm));
  for (const t of words) {
    if (!FUNCTION_WORDS.has(t.lemma) || t.neg) f.add((t.neg ? "!" : "") + t.lemma);
    if (DAYS.has(t.norm)) f.add("@day");
    if (MONTHS.has(t.norm)) f.add("@month");
    if (CLOCK.has(t.norm)) f.add("@clock");
    if (t.lemma === "#num" || isNumberWord(t.norm)) f.add("@num");
    if (t.name && !DAYS.has(t.norm) && !MONTHS.has(t.norm)) f.add("@name");
  }
  for (let i = 0; i + 1 < words.length; i++)
    if ((words[i].lemma === "#num" || isNumberWord(words[i].norm)) && /^(year|month|week)$/.test(words[i + 1].lemma)) f.add("@duration");
  for (let i = 0; i + 1 < content.length; i++) f.add(`${content[i].lemma}_${content[i + 1].lemma}`);
  if (content.length) f.add(`^${content[0].lemma}`);
  if (s.question) f.add("@question");
  if (s.hypothetical) f.add("@hypothetical");
  if (words.some((t) => t.neg)) f.add("@negated");
  if (context.prev) for (const p of context.prev) f.add(p);
  return [...f];
}
