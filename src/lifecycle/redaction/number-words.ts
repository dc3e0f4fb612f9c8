/**
 * Digits as people say them and speech recognisers write them: "4111",
 * "four one one one", "oh", "double four", "forty one". Each token of text
 * becomes a piece of a digit run, a separator that may sit inside a run, or a
 * break.
 */
const UNITS: Record<string, string> = {
  zero: "0",
  oh: "0",
  o: "0",
  nought: "0",
  naught: "0",
  nil: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
};
const TEENS: Record<string, string> = {
  ten: "10",
  eleven: "11",
  twelve: "12",
  thirteen: "13",
  fourteen: "14",
  fifteen: "15",
  sixteen: "16",
  seventeen: "17",
  eighteen: "18",
  nineteen: "19",
};
const TENS: Record<string, string> = { twenty: "2", thirty: "3", forty: "4", fifty: "5", sixty: "6", seventy: "7", eighty: "8", ninety: "9" };
const REPEAT: Record<string, number> = { double: 2, triple: 3 };
/** Inside a run these do not break it: "4111-1111", "4111, 1111", "12/25". */
const JOINERS = new Set(["-", ",", ".", "/", ")"]);

export interface Token {
  start: number;
  end: number;
  text: string;
}

export interface DigitPiece {
  start: number;
  end: number;
  digits: string;
}

export interface DigitRun {
  pieces: DigitPiece[];
  digits: string;
  start: number;
  end: number;
  /** A "+" directly before the run (international phone numbers). */
  plus: boolean;
}

/** Widens a run's span over a directly preceding "+" or "(" so "+44 20 …" and "(415) 555-…" go whole. */
function leadingMark(text: string, start: number): number {
  let s = start;
  while (s > 0 && text[s - 1] === " ") s--;
  return s > 0 && (text[s - 1] === "+" || text[s - 1] === "(") ? s - 1 : start;
}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[A-Za-z]+|\d+|\S/g)) out.push({ start: m.index!, end: m.index! + m[0].length, text: m[0] });
  return out;
}

/** The maximal runs of spoken or written digits in `text`. */
export function digitRuns(text: string, tokens: Token[] = tokenize(text)): DigitRun[] {
  const runs: DigitRun[] = [];
  let pieces: DigitPiece[] = [];
  const close = () => {
    if (pieces.length > 0) {
      const first = pieces[0].start;
      const start = leadingMark(text, first);
      runs.push({ pieces, digits: pieces.map((p) => p.digits).join(""), start, end: pieces[pieces.length - 1].end, plus: text[start] === "+" });
    }
    pieces = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const word = t.text.toLowerCase();
    const repeat = REPEAT[word];
    const next = tokens[i + 1];
    if (repeat && next && singleDigit(next.text)) {
      pieces.push({ start: t.start, end: next.end, digits: singleDigit(next.text)!.repeat(repeat) });
      i++;
      continue;
    }
    if (/^\d+$/.test(t.text)) {
      pieces.push({ start: t.start, end: t.end, digits: t.text });
      continue;
    }
    if (word in UNITS) {
      // "o" and "oh" are digits only beside other digits: "oh, I see" is not a zero.
      if ((word === "o" || word === "oh") && pieces.length === 0 && !(next && (singleDigit(next.text) || /^\d/.test(next.text)))) {
        close();
        continue;
      }
      pieces.push({ start: t.start, end: t.end, digits: UNITS[word] });
      continue;
    }
    if (word in TEENS) {
      pieces.push({ start: t.start, end: t.end, digits: TEENS[word] });
      continue;
    }
    if (word in TENS) {
      // "forty one" / "forty-one" is 41; "forty" alone is 40.
      const a = tokens[i + 1];
      const j = a && a.text === "-" ? i + 2 : i + 1;
      const b = tokens[j];
      const unit = b ? UNITS[b.text.toLowerCase()] : undefined;
      if (b && unit && unit !== "0" && b.text.toLowerCase() !== "o" && b.text.toLowerCase() !== "oh") {
        pieces.push({ start: t.start, end: b.end, digits: TENS[word] + unit });
        i = j;
      } else pieces.push({ start: t.start, end: t.end, digits: `${TENS[word]}0` });
      continue;
    }
    if (JOINERS.has(t.text) && pieces.length > 0) continue;
    close();
  }
  close();
  return runs;
}

function singleDigit(text: string): string | undefined {
  if (/^\d$/.test(text)) return text;
  const u = UNITS[text.toLowerCase()];
  return u;
}

/** The Luhn check digit test of payment card numbers. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}
