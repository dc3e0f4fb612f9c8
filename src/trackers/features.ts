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
 * How a feature is named from its parts: a lemma as itself ("price"), a
 * negated lemma ("!afford"), a shape mark ("@question"), a lemma bigram
 * ("go_ahead"), the first content lemma ("^honestly"). Banks look features up
 * by these parts so scoring never builds the names (ModelBank.slots).
 */
export type FeatureKind = "word" | "negated" | "mark" | "bigram" | "first";

export function featureName(kind: FeatureKind, a: string, b = ""): string {
  switch (kind) {
    case "word":
    case "mark":
      return a;
    case "negated":
      return `!${a}`;
    case "bigram":
      return `${a}_${b}`;
    case "first":
      return `^${a}`;
  }
}

/**
 * A sentence's classifier features, in the order they are found, duplicates
 * included: lemmas (marked "!" inside a negation), a few shape marks
 * (question, conditional, number, weekday/clock/month words), lemma bigrams
 * over the content words, the first content lemma.
 */
export function eachFeature(s: Sentence, emit: (kind: FeatureKind, a: string, b?: string) => void): void {
  const words = s.words;
  const content = words.filter((t) => !FILLERS.has(t.norm));
  for (const t of words) {
    if (t.neg) emit("negated", t.lemma);
    else if (!FUNCTION_WORDS.has(t.lemma)) emit("word", t.lemma);
    if (DAYS.has(t.norm)) emit("mark", "@day");
    if (MONTHS.has(t.norm)) emit("mark", "@month");
    if (CLOCK.has(t.norm)) emit("mark", "@clock");
    if (t.lemma === "#num" || isNumberWord(t.norm)) emit("mark", "@num");
    if (t.name && !DAYS.has(t.norm) && !MONTHS.has(t.norm)) emit("mark", "@name");
  }
  for (let i = 0; i + 1 < words.length; i++)
    if ((words[i].lemma === "#num" || isNumberWord(words[i].norm)) && /^(year|month|week)$/.test(words[i + 1].lemma)) emit("mark", "@duration");
  for (let i = 0; i + 1 < content.length; i++) emit("bigram", content[i].lemma, content[i + 1].lemma);
  if (content.length) emit("first", content[0].lemma);
  if (s.question) emit("mark", "@question");
  if (s.hypothetical) emit("mark", "@hypothetical");
  if (words.some((t) => t.neg)) emit("mark", "@negated");
}

/**
 * A sentence -> the classifier's features by name (`eachFeature`), and the
 * line's context. De-duplicated, in the order they were found: the same
 * sentence always gives the same list.
 */
export function sentenceFeatures(s: Sentence, context: LineContext = NO_CONTEXT): string[] {
  const f = new Set<string>();
  eachFeature(s, (kind, a, b) => f.add(featureName(kind, a, b)));
  if (context.prev) for (const p of context.prev) f.add(p);
  return [...f];
}
