import { describe, expect, it } from "vitest";
import { packWeights, unpackWeights } from "../../src/trackers/weights-file.js";

describe("the committed weights' storage", () => {
  const models = {
    a: { fingerprint: "f1", bias: -1.25, weights: { price: 0.5, price_too: -0.05, "<@question": 2.01 } },
    b: { fingerprint: "f2", bias: 0.3, weights: { price: -1.5, zebra: 0.13 } },
    empty: { fingerprint: "f3", bias: 0, weights: {} },
  };

  it("gives back exactly the models it stored", () => {
    expect(unpackWeights(packWeights(models))).toEqual(models);
  });

  it("stores each feature name once and each weight as hundredths after an index step", () => {
    const stored = packWeights(models);
    expect(stored.features).toEqual(["<@question", "price", "price_too", "zebra"]);
    expect(stored.models.a.postings).toEqual([0, 201, 1, 50, 1, -5]);
    expect(stored.models.b.postings).toEqual([1, -150, 2, 13]);
    expect(stored.models.empty.postings).toEqual([]);
  });
});
