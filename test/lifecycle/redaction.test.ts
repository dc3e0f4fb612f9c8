import { describe, expect, it } from "vitest";
import { parseRedactKinds, redactionOf, REDACTION_KINDS } from "../../src/lifecycle/redaction/kinds.js";
import { luhnValid } from "../../src/lifecycle/redaction/number-words.js";
import { redactText, redactTranscript } from "../../src/lifecycle/redaction/redact-transcript.js";

const ALL = REDACTION_KINDS;

describe("redaction rules", () => {
  it.each([
    ["my card number is four one one one one one one one one one one one one one one one.", "my card number is [CARD]."],
    ["It's 4111 1111 1111 1111 and the expiry is twelve twenty six, CVV is seven three seven.", "It's [CARD] and the expiry is [EXPIRY], CVV is [CVV]."],
    ["it's four one double one, one one one one, one one one one, one one one one", "it's [CARD]"],
    ["five five oh oh, oh oh oh oh, oh oh oh oh, oh oh oh four", "[CARD]"],
    ["Card: 5500-0000-0000-0004, expires 04/27, security code 123", "Card: [CARD], expires [EXPIRY], security code [CVV]"],
    ["amex 3782 822463 10005 please", "amex [CARD] please"],
    // Not Luhn-valid, but said as a card number: still redacted.
    ["Card number 4111 1111 1111 1112, I think", "Card number [CARD], I think"],
  ])("cards: %s", (input, expected) => {
    expect(redactText(input, ["card"])).toBe(expected);
  });

  it.each([
    ["My SSN is 123-45-6789.", "My SSN is [SSN]."],
    ["social security is one two three four five six seven eight nine", "social security is [SSN]"],
    ["routing number 021000021 and account number 12345678901", "routing number [ROUTING] and account number [ACCOUNT]"],
    ["IBAN GB82 WEST 1234 5698 7654 32 thanks", "IBAN [IBAN] thanks"],
    ["email me at john.smith@example.com or john dot smith at gmail dot com", "email me at [EMAIL] or [EMAIL]"],
    ["call me at (415) 555-2671 or +44 20 7946 0958", "call me at [PHONE] or [PHONE]"],
  ])("other kinds: %s", (input, expected) => {
    expect(redactText(input, ALL)).toBe(expected);
  });

  it.each([
    "We have 120 reps and pay $4,000 per month, about 48,000 a year since 2021.",
    "Oh, I see. Forty one people, double check that.",
    "Our account manager handles 250 accounts.",
    "Let's talk on the 14th at 3 pm, extension 204.",
    "The deal is worth $1,250,000 over 3 years.",
    "They did 1,000,000,000 in revenue and 4155552671 dollars is not a phone.",
  ])("ordinary speech is left alone: %s", (input) => {
    expect(redactText(input, ALL)).toBe(input);
  });

  it("only the kinds asked for", () => {
    const text = "card 4111111111111111, ssn 123-45-6789, mail a@b.io, phone 415 555 2671";
    expect(redactText(text, ["card"])).toBe("card [CARD], ssn 123-45-6789, mail a@b.io, phone 415 555 2671");
    expect(redactText(text, [])).toBe(text);
  });

  it("finds a number read across two segments and keeps timing and speakers", () => {
    const t = {
      segments: [
        { t_start: 0, t_end: 3, speaker: "rep", text: "Can I take your card number?" },
        { t_start: 3, t_end: 6, speaker: "customer", text: "Yes, four one one one, one one one one," },
        { t_start: 6, t_end: 9, speaker: "customer", text: "one one one one, one one one one. Done." },
      ],
      metrics: null,
      language: "en",
      model: "imported",
    };
    const r = redactTranscript(t, ["card"]);
    expect(r.segments.map((s) => s.text)).toEqual(["Can I take your card number?", "Yes, [CARD]", "[CARD]. Done."]);
    expect(r.segments.map((s) => [s.t_start, s.t_end, s.speaker])).toEqual(t.segments.map((s) => [s.t_start, s.t_end, s.speaker]));
    expect(JSON.stringify(r)).not.toMatch(/one one/);
  });

  it("parses --redact and reads the company default", () => {
    expect(parseRedactKinds("card,ssn")).toEqual(["card", "ssn"]);
    expect(parseRedactKinds("none")).toEqual([]);
    expect(() => parseRedactKinds("card,cvv")).toThrow(/invalid --redact "card,cvv"/);
    expect(() => parseRedactKinds("")).toThrow(/invalid --redact/);
    expect(redactionOf({})).toEqual(["card"]);
    expect(redactionOf({ redact: [] })).toEqual([]);
    expect(redactionOf({ redact: ["email", "card"] })).toEqual(["card", "email"]);
  });

  it("Luhn", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(luhnValid("378282246310005")).toBe(true);
  });
});
