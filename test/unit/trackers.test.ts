import { describe, expect, it } from "vitest";
import { detect } from "../../src/trackers/engine.js";
import { parseTrackerFile } from "../../src/trackers/file.js";
import { BUILTIN_TRACKERS } from "../../src/trackers/library/index.js";
import { matchPattern, parsePattern, PatternError } from "../../src/trackers/pattern.js";
import { buildTrackers, effectiveTrackers } from "../../src/trackers/registry.js";
import { readUtterance } from "../../src/trackers/text.js";
import { exampleFeatures, fingerprint, lineExamples, trainTracker } from "../../src/trackers/train.js";
import { committedModels } from "../../src/trackers/weights/index.js";
import { devCalls, labelledLines, WRITERS } from "../eval/writers.js";

const words = (text: string) => readUtterance(text).flatMap((s) => s.tokens.filter((t) => !t.punct));
const matches = (pattern: string, text: string) => matchPattern(parsePattern(pattern), words(text)) !== null;

describe("reading a line", () => {
  it("splits sentences, lemmatises, splits contractions and marks negation scope, questions and conditionals", () => {
    const [a, b, c] = readUtterance("We can't guarantee returns, but it's fine. Who'd run the training? If price were an issue, we'd talk.");
    expect(a.tokens.filter((t) => !t.punct).map((t) => `${t.neg ? "!" : ""}${t.lemma}`)).toEqual([
      "we",
      "can",
      "not",
      "!guarantee",
      "!return",
      "but",
      "it",
      "fine",
    ]);
    expect(a.question).toBe(false);
    expect(b.question).toBe(true);
    expect(b.tokens.map((t) => t.lemma)).toEqual(expect.arrayContaining(["who", "would", "training"]));
    expect(readUtterance("We renewed and they were happy.")[0].tokens.map((t) => t.lemma)).toEqual(expect.arrayContaining(["renew", "be"]));
    expect(c.hypothetical).toBe(true);
    expect(readUtterance("This allocation closes tonight if you want a spot.")[0].hypothetical).toBe(false);
  });
});

describe("patterns", () => {
  it("an optional group may be followed directly by a word", () => {
    expect(matches("goes back (up )?to forty", "Come Friday it goes back to forty.")).toBe(true);
    expect(matches("goes back (up )?to forty", "Come Friday it goes back up to forty.")).toBe(true);
    expect(matches("goes back (up )?to forty", "Come Friday it goes back down to forty.")).toBe(false);
  });

  it("NEAR/n either order, BEFORE/n in order, ... as a six-word gap, alternatives and wildcards", () => {
    expect(matches("record* NEAR/6 (call|line|conversation)", "Heads up, I keep a recording of these calls.")).toBe(true);
    expect(matches("record* NEAR/6 (call|line|conversation)", "Calls like these, we always record them.")).toBe(true);
    expect(matches("(not|no) BEFORE/3 guarantee*", "There is no real guarantee.")).toBe(true);
    expect(matches("(not|no) BEFORE/3 guarantee*", "We guarantee it, no question.")).toBe(false);
    expect(matches("guarantee* ... return*", "we guarantee you a solid nine percent return")).toBe(true);
    expect(matches('"set aside"', "that's north of what we set aside")).toBe(true);
  });

  it("a base-form word meets every form; an inflected one only itself; contractions either way", () => {
    expect(matches("claim", "they pay all claims")).toBe(true);
    expect(matches("renewed", "we renew every year")).toBe(false);
    expect(matches("renew", "we renewed in March")).toBe(true);
    expect(matches("dont need", "we don't need it")).toBe(true);
    expect(matches("can't afford", "we cannot afford that")).toBe(true);
  });

  it("optional and nested groups, groups of several words, and the leftmost span", () => {
    const span = (pattern: string, text: string) => matchPattern(parsePattern(pattern), words(text));
    expect(matches("(my|our) (big |main )?(worry|concern) (is|here)", "our main concern here is the rollout")).toBe(true);
    expect(matches("(my|our) (big |main )?(worry|concern) (is|here)", "my worry is cost")).toBe(true);
    expect(matches("(my|our) (big |main )?(worry|concern) (is|here)", "my big main worry is cost")).toBe(false);
    expect(matches("end of the (day|week|month)", "by the end of the month")).toBe(true);
    expect(matches("(call|follow up) NEAR/4 (end of (the )?(day|week)|in (two|a few) (days|weeks))", "follow up in a few weeks")).toBe(true);
    expect(matches("(call|follow up) NEAR/4 (end of (the )?(day|week)|in (two|a few) (days|weeks))", "in two weeks we could call")).toBe(true);
    expect(matches("(call|follow up) NEAR/4 (end of (the )?(day|week)|in (two|a few) (days|weeks))", "in a few days, sure, that is fine, we call")).toBe(false);
    expect(span("(very)? price", "price and then a very price")?.[0]).toBe(0);
    expect(span("budget NEAR/3 (tight|small)", "tight times, the budget is small")?.[0]).toBe(0);
    expect(span("budget BEFORE/3 (tight|small)", "tight times, the budget is small")?.[0]).toBe(3);
  });

  it("refuses a malformed pattern with a reason", () => {
    expect(() => parsePattern("(too dear")).toThrow(PatternError);
    expect(() => parsePattern("price NEAR/3")).toThrow(/nothing after NEAR\/3/);
    expect(() => parsePattern("a*")).toThrow(/at least two letters/);
  });
});

describe("trackers", () => {
  const builtin = buildTrackers(BUILTIN_TRACKERS);
  const fired = (speaker: string, text: string) =>
    detect([{ t_start: 0, t_end: 3, speaker, text }], builtin).map((h) => `${h.tracker.category}/${h.tracker.type}`);

  it("hear what is meant in the issue's wordings", () => {
    expect(fired("customer", "Let me loop in Priya before we go further.")).toContain("objection/authority");
    expect(fired("customer", "We renewed with our current vendor in March.")).toContain("objection/competitor");
    expect(fired("customer", "That's north of what we set aside.")).toContain("objection/price");
    expect(fired("customer", "Who would run the training on our side?")).toContain("buying_signal/implementation");
    expect(fired("rep", "This rate disappears when we hang up.")).toContain("prohibited_claim/pressure_tactics");
    expect(fired("rep", "Our plan pays every claim, no exceptions.")).toContain("prohibited_claim/misleading_absolute_claim");
    expect(fired("rep", "Heads up, I keep a recording of these calls.")).toContain("disclosure/recording_disclosure");
  });

  it("hold back negated and wished-for framings", () => {
    expect(fired("rep", "There's no guarantee, and I won't pretend otherwise.")).not.toContain("prohibited_claim/prohibited_guarantee");
    expect(fired("rep", "I won't ask for your card number over the phone.")).not.toContain("sensitive_data_request/payment_data_request");
    expect(fired("customer", "Risk-free would be nice, wouldn't it?")).toEqual(expect.not.arrayContaining(["prohibited_claim/prohibited_risk_free"]));
    expect(fired("rep", "If I told you it was risk-free, I'd be lying.")).not.toContain("prohibited_claim/prohibited_risk_free");
  });

  it("read a dropped g, a concession and indirect deadlines as meant, and leave puffery and refusals alone", () => {
    expect(fired("rep", "Honestly, there's nothin' for you to lose here.")).toContain("prohibited_claim/prohibited_risk_free");
    expect(fired("rep", "Even if the market drops, it's zero risk for you.")).toContain("prohibited_claim/prohibited_risk_free");
    expect(fired("rep", "Come Monday that's eighty-seven, so I wouldn't sit on it.")).toContain("prohibited_claim/pressure_tactics");
    expect(fired("rep", "The system flips it back to forty on Friday.")).toContain("prohibited_claim/pressure_tactics");
    expect(fired("rep", "There's not a postcode it doesn't cover.")).toContain("prohibited_claim/misleading_absolute_claim");
    expect(fired("rep", "Our panels are the best on the market, top rated.")).not.toContain("prohibited_claim/misleading_absolute_claim");
    expect(fired("rep", "And I won't sit here and tell you it's guaranteed to save a bin.")).not.toContain("prohibited_claim/prohibited_guarantee");
    expect(fired("rep", "The clip goes straight to the cloud, so a dodgy SD card can't lose it.")).not.toContain("prohibited_claim/prohibited_risk_free");
  });

  it("labelled call lines teach a tracker its kind: its label is a positive, any other line of its speaker a negative", () => {
    const price = BUILTIN_TRACKERS.find((x) => x.id === "objection_price")!;
    const lines = [
      { speaker: "customer" as const, text: "That's more than we were hoping to spend.", labels: ["objection:price"] },
      { speaker: "customer" as const, text: "We'd need sign-off from our director.", labels: ["objection:authority"] },
      { speaker: "rep" as const, text: "It's forty a month per seat.", labels: [] },
    ];
    expect(lineExamples(price, lines)).toEqual([
      { features: exampleFeatures(lines[0].text), label: 1 },
      { features: exampleFeatures(lines[1].text), label: 0 },
    ]);
    // A tracker the corpus does not label (rejection) takes nothing from it, nor do the absolute-claim tracker and the disclosure.
    expect(lineExamples(BUILTIN_TRACKERS.find((x) => x.id === "rejection")!, lines)).toEqual([]);
    const repLines = [
      { speaker: "rep" as const, text: "You'll double your money, that's a given.", labels: ["breach:guarantee"] },
      { speaker: "rep" as const, text: "Nobody beats our price, ever.", labels: ["breach:absolute_claim"] },
    ];
    expect(lineExamples(BUILTIN_TRACKERS.find((x) => x.id === "claim_absolute")!, repLines)).toEqual([]);
    expect(lineExamples(BUILTIN_TRACKERS.find((x) => x.id === "disclosure")!, repLines)).toEqual([]);
    // The other claims learn from the rep lines: their label a positive, another breach a negative.
    expect(lineExamples(BUILTIN_TRACKERS.find((x) => x.id === "claim_guarantee")!, repLines).map((e) => e.label)).toEqual([1, 0]);
  });

  it("the committed weights are what training on the library and the dev corpus gives (run npm run train:trackers after changing either)", () => {
    const models = committedModels();
    for (const t of BUILTIN_TRACKERS.filter((x) => x.examples.length > 0)) {
      expect(models[t.id]?.fingerprint, t.id).toBe(fingerprint(t, BUILTIN_TRACKERS));
    }
    const t = BUILTIN_TRACKERS.find((x) => x.id === "objection_trust")!;
    const { fingerprint: _f, ...committed } = models[t.id];
    expect(trainTracker(t, BUILTIN_TRACKERS, labelledLines(devCalls(WRITERS)))).toEqual(committed);
  });

  it("a company override stored by an earlier version still works (unknown built-in ids, old phrases, a phrase the grammar refuses)", () => {
    const stored = {
      trackers: [{ id: "competitor_acme", category: "objection", type: "competitor", speaker: "customer", phrases: ["acme dialer*", "we use acme", "50%"] }],
      disable: ["signal_references"],
      replace_builtins: false,
    };
    const compiled = buildTrackers(effectiveTrackers(stored));
    const hits = detect([{ t_start: 0, t_end: 2, speaker: "customer", text: "Honestly we use Acme for all of it." }], compiled);
    expect(hits.find((h) => h.tracker.id === "competitor_acme")?.reason).toMatchObject({ by: "pattern", pattern: "we use acme" });
  });

  it("reads the earlier phrase-list format", () => {
    const file = parseTrackerFile(
      JSON.stringify({ trackers: [{ id: "c", category: "commitment", type: "commitment", speaker: "any", phrases: ["lets do it"] }] }),
    );
    const def = effectiveTrackers(file).find((x) => x.id === "c")!;
    expect(def).toMatchObject({ category: "buying_signal", type: "commitment", speaker: "either", patterns: ["lets do it"] });
    expect(detect([{ t_start: 0, t_end: 1, speaker: "customer", text: "Okay, let's do it." }], buildTrackers([def])).length).toBe(1);
  });
});
