import { describe, expect, it } from "vitest";
import { compiledTrackers } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { ModelBank, REMEMBERED_LIMIT, score, type LinearModel } from "../../src/trackers/classifier.js";
import { eachFeature, featureName, sentenceFeatures } from "../../src/trackers/features.js";
import { readUtterance } from "../../src/trackers/text.js";
import { loadSplit } from "../eval/corpus.js";

/** Each model's probability from the feature names, one model at a time (a bank gives 0.5 where it holds no model). */
const byNames = (models: Array<LinearModel | null>, names: string[]) => models.map((m) => (m ? score(m, names) : 0.5));

const slotsOf = (bank: ModelBank, text: string) =>
  readUtterance(text).map((s) => {
    const out: number[] = [];
    bank.fresh();
    eachFeature(s, (kind, a, b) => {
      const f = bank.slotOf(kind, a, b);
      if (bank.keep(f)) out.push(f);
    });
    return { s, out };
  });

describe("model bank", () => {
  it("scores a sentence by its feature slots exactly as by its feature names: every dev line, every built-in model", () => {
    const models = compiledTrackers(undefined).map((t) => t.model);
    const bank = new ModelBank(models);
    let lines = 0;
    for (const call of loadSplit("dev"))
      for (const line of call.lines)
        for (const { s, out } of slotsOf(bank, line.text)) {
          expect(Array.from(bank.scoreSlots(out))).toEqual(byNames(models, sentenceFeatures(s)));
          lines++;
        }
    expect(lines).toBeGreaterThan(10_000);
  });

  it("keeps a bigram apart from a single feature whose kind is spelled like its first lemma", () => {
    // "first thing" is the bigram first_thing; "^thing" would be the first-content-lemma feature of "thing".
    const model = {
      bias: 0,
      weights: { [featureName("bigram", "first", "thing")]: 1, [featureName("first", "thing")]: -2, [featureName("word", "first")]: 0.5 },
    };
    const bank = new ModelBank([model]);
    expect(bank.slotOf("first", "thing")).not.toBe(bank.slotOf("bigram", "first", "thing"));
    expect(bank.slotOf("word", "first")).not.toBe(bank.slotOf("bigram", "word", "first"));
    const [{ out, s }] = slotsOf(bank, "Thing first thing.");
    expect(bank.scoreSlots(out)[0]).toBe(score(model, sentenceFeatures(s)));
    expect(out.length).toBe(3);
  });

  it("de-duplicates a feature said twice in a sentence, as the names do", () => {
    const bank = new ModelBank([{ bias: 0, weights: { price: 1 } }]);
    const [{ out }] = slotsOf(bank, "Price, price, price.");
    expect(out).toEqual([bank.slotOf("word", "price")]);
  });

  it("answers the same after starting over: a long-running process meets more word pairs than it keeps", () => {
    const bank = new ModelBank([{ bias: 0, weights: { go_ahead: 2, "!afford": -1 } }]);
    const before = [bank.slotOf("bigram", "go", "ahead"), bank.slotOf("negated", "afford"), bank.slotOf("bigram", "go", "away")];
    // Into maps it already holds (one first word), and into new ones.
    for (let i = 0; i < 150_000; i++) bank.slotOf("bigram", "go", `v${i}`);
    for (let i = 0; i < 150_000; i++) bank.slotOf("bigram", `w${i}`, "x");
    expect([bank.slotOf("bigram", "go", "ahead"), bank.slotOf("negated", "afford"), bank.slotOf("bigram", "go", "away")]).toEqual(before);
    expect(before[0]).toBeGreaterThanOrEqual(0);
    expect(before[2]).toBe(-1);
    expect(bank.remembering).toBeLessThanOrEqual(REMEMBERED_LIMIT);
  });
});
