import { lemmaOf } from "./lemma.js";

/**
 * An utterance as the trackers read it: sentences of tokens, each token with
 * its lower-case form, its lemma and whether it sits in the scope of a
 * negation ("we can't guarantee returns": guarantee and returns are negated).
 */
export interface Token {
  /** Lower-case surface form, apostrophes dropped ("i'm" -> "im" only for unknown contractions). */
  norm: string;
  lemma: string;
  neg: boolean;
  punct: boolean;
  /** Written with a capital inside the sentence: a name (person, company, product). */
  name: boolean;
}

export interface Sentence {
  tokens: Token[];
  /** The tokens without punctuation: what patterns and features read. */
  words: Token[];
  /** A question: ends in "?" or opens like one (who/what/how…, or do/can/would you…). */
  question: boolean;
  /** A conditional or wished-for framing ("if price were an issue", "risk-free would be nice"). */
  hypothetical: boolean;
  /** The sentence as written, for quotes. */
  text: string;
}

const CONTRACTIONS: Record<string, string[]> = {
  "can't": ["can", "not"],
  cannot: ["can", "not"],
  "won't": ["will", "not"],
  "shan't": ["shall", "not"],
  "ain't": ["be", "not"],
  "i'm": ["i", "be"],
  "let's": ["let", "us"],
  "y'all": ["you", "all"],
};
const SUFFIXES: Array<[string, string]> = [
  ["n't", "not"],
  ["'re", "be"],
  ["'ve", "have"],
  ["'ll", "will"],
  ["'d", "would"],
  ["'m", "be"],
  ["'s", ""],
];

const NEGATORS = new Set(["not", "no", "never", "nobody", "nothing", "none", "neither", "nor", "without", "hardly", "nowhere"]);
/** Words that end a negation's scope: the clause turns ("not X, but Y"). */
const SCOPE_ENDS = new Set(["but", "however", "although", "though", "yet", "except", "instead", "so", "because", "and"]);
const NEG_SCOPE = 7;
const QUESTION_OPENERS = new Set([
  "who",
  "what",
  "when",
  "where",
  "why",
  "how",
  "which",
  "whats",
  "hows",
  "is",
  "are",
  "do",
  "does",
  "did",
  "can",
  "could",
  "would",
  "will",
  "should",
  "shall",
  "have",
  "has",
  "any",
]);
/** Opens as a condition, or wishes: "if price were an issue…", "what if…", "risk-free would be nice". A mid-sentence "if" is not enough ("it closes tonight if you want a spot"); nor is "even if", which concedes and then asserts ("even if the market drops, you can't lose"). */
const HYPOTHETICAL =
  /^(?:(?:so|and|but|well|okay|um|uh|look|now)[, ]+)*(?:if|what if|suppose|supposing|imagine|say)\b|\b(?:hypothetically|in theory|would be nice|would be great|would be lovely|i wish|we wish)\b/;

/** The same contractions typed without an apostrophe ("dont", "thats"), as transcripts and tracker files often have them. */
const BARE: Record<string, string[]> = {
  dont: ["do", "not"],
  doesnt: ["do", "not"],
  didnt: ["do", "not"],
  cant: ["can", "not"],
  wont: ["will", "not"],
  isnt: ["be", "not"],
  arent: ["be", "not"],
  wasnt: ["be", "not"],
  werent: ["be", "not"],
  havent: ["have", "not"],
  hasnt: ["have", "not"],
  hadnt: ["have", "not"],
  couldnt: ["could", "not"],
  wouldnt: ["would", "not"],
  shouldnt: ["should", "not"],
  aint: ["be", "not"],
  thats: ["that"],
  // Typed transcripts write "its" for "it's" as often as not; "it's" reads as "it", so both do.
  its: ["it"],
  whats: ["what"],
  theres: ["there"],
  heres: ["here"],
  lets: ["let", "us"],
  im: ["i", "be"],
  youre: ["you", "be"],
  theyre: ["they", "be"],
  weve: ["we", "have"],
  ive: ["i", "have"],
  youve: ["you", "have"],
  itll: ["it", "will"],
  youll: ["you", "will"],
  theyll: ["they", "will"],
  id: ["i", "would"],
  youd: ["you", "would"],
  wed: ["we", "would"],
};

export function splitWord(raw: string): string[] {
  const w = raw.replace(/[\u2018\u2019\u02bc`]/g, "'");
  // A dropped g written out ("nothin'", "bein'"): the word as it would be spelled.
  if (w.length > 4 && w.endsWith("in'")) return [`${w.slice(0, -1)}g`];
  const bare = BARE[w];
  if (bare) return bare;
  const whole = CONTRACTIONS[w];
  if (whole) return whole;
  for (const [suf, rep] of SUFFIXES) {
    if (w.length > suf.length && w.endsWith(suf)) {
      const head = w.slice(0, -suf.length);
      return rep ? [head === "ca" ? "can" : head === "wo" ? "will" : head, rep] : [head];
    }
  }
  return [w.replace(/'/g, "")];
}

const forms = new Map<string, Array<[string, string]>>();
/** A raw lower-case word -> its words and lemmas ("can't" -> can/can, not/not), memoised: calls share most of their words. */
function wordForms(raw: string): Array<[string, string]> {
  let f = forms.get(raw);
  if (!f) {
    f = splitWord(raw.replace(/\.$/, ""))
      .filter(Boolean)
      .map((w) => [w, /^[0-9]/.test(w) ? "#num" : lemmaOf(w)] as [string, string]);
    if (forms.size > 200_000) forms.clear();
    forms.set(raw, f);
  }
  return f;
}

/** Lower-case words, numbers and sentence punctuation; "%" and "$" spelled out. */
function rawTokens(text: string): string[] {
  const t = text
    .replace(/%/g, " percent ")
    .replace(/\$/g, " dollar ")
    .replace(/[\u2018\u2019\u02bc`]/g, "'");
  return t.match(/[A-Za-z0-9]+(?:['.][A-Za-z0-9]+)*'?[A-Za-z]*|[.!?,;:\u2014\u2013-]+/g) ?? [];
}

const NUMBER_WORDS = new Set([
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "fifteen",
  "twenty",
  "thirty",
  "forty",
  "fifty",
  "sixty",
  "seventy",
  "eighty",
  "ninety",
  "hundred",
  "thousand",
  "grand",
  "million",
  "half",
  "dozen",
]);
export const isNumberWord = (w: string) => NUMBER_WORDS.has(w);

/** The text of a transcript segment -> sentences. Deterministic and allocation-light: it runs on every segment of every call. */
export function readUtterance(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let tokens: Token[] = [];
  let negLeft = 0;
  const pieces = text.split(/(?<=[.!?])\s+/);
  for (const piece of pieces) {
    tokens = [];
    negLeft = 0;
    let question = false;
    let first = true;
    for (const cased of rawTokens(piece)) {
      const raw = cased.toLowerCase();
      if (/^[.!?,;:\u2014\u2013-]+$/.test(raw)) {
        if (raw.includes("?")) question = true;
        tokens.push({ norm: raw[0], lemma: raw[0], neg: false, punct: true, name: false });
        negLeft = 0;
        continue;
      }
      const name = !first && /^[A-Z]/.test(cased) && cased !== "I" && !/^I'/.test(cased);
      first = false;
      for (const [w, lemma] of wordForms(raw)) {
        if (SCOPE_ENDS.has(w)) negLeft = 0;
        const neg = negLeft > 0;
        tokens.push({ norm: w, lemma, neg, punct: false, name });
        if (negLeft > 0) negLeft--;
        if (NEGATORS.has(w) || NEGATORS.has(lemma)) negLeft = NEG_SCOPE;
      }
    }
    const words = tokens.filter((t) => !t.punct);
    if (words.length === 0) continue;
    const opener =
      words[0].norm === "so" || words[0].norm === "and" || words[0].norm === "okay" || words[0].norm === "um" || words[0].norm === "uh"
        ? words[1]?.norm
        : words[0].norm;
    if (
      !question &&
      opener &&
      QUESTION_OPENERS.has(opener) &&
      /\b(you|we|i|it|there|this|that|they)\b/.test(piece.toLowerCase()) &&
      !/^(is|are|do|does|did|can|could|would|will|should|shall|have|has|any)$/.test(opener ?? "")
    )
      question = true;
    sentences.push({ tokens, words, question, hypothetical: HYPOTHETICAL.test(piece.toLowerCase()), text: piece.trim() });
  }
  return sentences;
}
