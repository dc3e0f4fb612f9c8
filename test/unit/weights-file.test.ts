import { describe, expect, it } from "vitest";
import { packWeights, unpackWeights } from "../../src/trackers/weights-file.js";

describe("the committed weights' storage", () => {
  const models = {
    a: { fingerprint: "f1", bias: -1.25, weights: { price: 0.5, price_too: -0.051, "<@question": 2.003 } },
    b: { fingerprint: "f2", bias: 0.3, weights: { price: -1.5, zebra: 0.125 } },
    empty: { fingerprint: "f3", bias: 0, weights: {} },
  };

  it("gives back exactly the models it stored", () => {
    expect(unpackWeights(packWeights(models))).toEqual(models);
  });

  it("stores each feature name once and each weight as thousandths after an index step", () => {
    const stored = packWeights(models);
    expect(stored.features).toEqual(["<@question", "price", "price_too", "zebra"]);
    expect(stored.models.a.postings).toEqual([0, 2003, 1, 500, 1, -51]);
    expect(stored.models.b.postings).toEqual([1, -1500, 2, 125]);
    expect(stored.models.empty.postings).toEqual([]);
  });
});
