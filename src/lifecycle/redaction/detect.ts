import type { RedactionKind } from "./kinds.js";
import { digitRuns, luhnValid, tokenize, type DigitRun } from "./number-words.js";

export interface SensitiveSpan {
  start: number;
  end: number;
  /** The typed token that replaces it: [CARD], [CVV], [EXPIRY], [SSN], [ACCOUNT], [ROUTING], [IBAN], [EMAIL], [PHONE]. */
  token: string;
}

const CARD_CONTEXT = /\b(card|visa|master ?card|amex|american express|discover|credit|debit)\b/;
const CVV_CONTEXT = /\b(cvv2?|cvc2?|csc|security code|card code|verification (code|number|value)|code on the back|(three|four|3|4)[ -]digit (code|number))\b/;
const EXPIRY_CONTEXT = /\b(expir\w*|exp|valid (thru|through|until)|good (thru|through|until))\b/;
const SSN_CONTEXT = /\b(social|ssn|social security)\b/;
const ROUTING_CONTEXT = /\b(routing|aba|transit number|sort code)\b/;
const ACCOUNT_CONTEXT = /\b(account|acct|iban|checking|savings)\b/;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const SPOKEN_EMAIL =
  /\b[a-z0-9][a-z0-9_-]*(?:\s+(?:dot|underscore|dash)\s+[a-z0-9_-]+)*\s+at\s+[a-z0-9-]+(?:\s+dot\s+[a-z0-9-]+)*\s+dot\s+(?:com|net|org|edu|gov|io|co|uk|de|fr|es|it|nl|biz|info|us|ca|au)\b/gi;
const IBAN = /\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,7}(?:[ -]?[A-Z0-9]{1,3})?\b/gi;

/**
 * Finds what must not be stored, in one text (a whole transcript, its segments
 * joined, so a number read across two segments is still one number).
 * Digit runs are classified once, most specific first: a Luhn-valid card
 * number, then what the words just before it say it is.
 */
export function findSensitiveSpans(text: string, kinds: readonly RedactionKind[]): SensitiveSpan[] {
  const on = new Set(kinds);
  const spans: SensitiveSpan[] = [];
  if (on.has("email")) {
    for (const re of [EMAIL, SPOKEN_EMAIL]) for (const m of text.matchAll(re)) spans.push({ start: m.index!, end: m.index! + m[0].length, token: "[EMAIL]" });
  }
  if (on.has("account")) {
    for (const m of text.matchAll(IBAN)) if (ibanValid(m[0])) spans.push({ start: m.index!, end: m.index! + m[0].length, token: "[IBAN]" });
  }
  const lower = text.toLowerCase();
  const before = (run: { start: number }, chars: number) => lower.slice(Math.max(0, run.start - chars), run.start);
  for (const run of digitRuns(text, tokenize(text))) {
    if (overlaps(spans, run.start, run.end)) continue;
    if (on.has("card")) {
      const cards = cardWindows(run);
      if (cards.length > 0) {
        spans.push(...cards);
        continue;
      }
      const n = run.digits.length;
      if (n >= 12 && n <= 19 && CARD_CONTEXT.test(before(run, 120))) {
        spans.push({ start: run.start, end: run.end, token: "[CARD]" });
        continue;
      }
      if (n >= 3 && n <= 4 && CVV_CONTEXT.test(before(run, 60))) {
        spans.push({ start: run.start, end: run.end, token: "[CVV]" });
        continue;
      }
      if (n >= 3 && n <= 6 && EXPIRY_CONTEXT.test(before(run, 60))) {
        spans.push({ start: run.start, end: run.end, token: "[EXPIRY]" });
        continue;
      }
    }
    if (looksLikeAmount(text, run)) continue;
    const kind = classify(run, before(run, 80), on);
    if (kind) spans.push({ start: run.start, end: run.end, token: kind });
  }
  return spans.sort((a, b) => a.start - b.start);
}

function classify(run: DigitRun, context: string, on: Set<RedactionKind>): string | undefined {
  const n = run.digits.length;
  const shape = run.pieces.map((p) => p.digits.length).join("-");
  if (on.has("ssn") && n === 9 && (shape === "3-2-4" || SSN_CONTEXT.test(context))) return "[SSN]";
  if (on.has("account")) {
    if ((n === 9 || n === 6) && ROUTING_CONTEXT.test(context)) return "[ROUTING]";
    if (n >= 6 && n <= 17 && ACCOUNT_CONTEXT.test(context) && !/\$\s*$/.test(context)) return "[ACCOUNT]";
  }
  if (on.has("phone")) {
    if (run.plus && n >= 8 && n <= 15) return "[PHONE]";
    if (n === 10 || (n === 11 && run.digits.startsWith("1"))) return "[PHONE]";
  }
  return undefined;
}

/** Luhn-valid 13-19 digit stretches of a run, on piece boundaries, longest first. */
function cardWindows(run: DigitRun): SensitiveSpan[] {
  const out: SensitiveSpan[] = [];
  const p = run.pieces;
  let i = 0;
  while (i < p.length) {
    let found = -1;
    let digits = "";
    const candidates: number[] = [];
    for (let j = i; j < p.length; j++) {
      digits += p[j].digits;
      if (digits.length > 19) break;
      if (digits.length >= 13 && luhnValid(digits)) candidates.push(j);
    }
    if (candidates.length > 0) found = candidates[candidates.length - 1];
    if (found >= 0) {
      out.push({ start: p[i].start, end: p[found].end, token: "[CARD]" });
      i = found + 1;
    } else i++;
  }
  return out;
}

/** "$1,000,000,000", "1,200,000 dollars", "2,500,000 a year": money, not an identifier. */
function looksLikeAmount(text: string, run: DigitRun): boolean {
  const written = text.slice(run.start, run.end);
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(written)) return true;
  if (/[$€£]\s*$/.test(text.slice(Math.max(0, run.start - 2), run.start))) return true;
  return /^\s*(dollars?|euros?|pounds?|bucks|percent|%|k\b|million|billion|thousand)/i.test(text.slice(run.end, run.end + 12));
}

function overlaps(spans: SensitiveSpan[], start: number, end: number): boolean {
  return spans.some((s) => s.start < end && start < s.end);
}

/** ISO 13616 mod-97 check: keeps ordinary words-and-numbers from looking like an IBAN. */
function ibanValid(raw: string): boolean {
  const s = raw.replace(/[ -]/g, "").toUpperCase();
  if (s.length < 15 || s.length > 34) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const v = ch >= "A" && ch <= "Z" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1;
}
