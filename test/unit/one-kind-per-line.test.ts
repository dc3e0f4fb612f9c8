import { describe, expect, it } from "vitest";
import { detect, oneKindPerLine, type TrackerHit } from "../../src/trackers/engine.js";
import type { TrackerDef } from "../../src/trackers/format.js";
import { compiledTrackers } from "../../src/trackers/registry.js";

const def = (id: string, category: TrackerDef["category"], type: string): TrackerDef => ({
  id,
  category,
  type,
  speaker: "customer",
  examples: [],
  negatives: [],
  patterns: [],
  exclude: [],
  negatable: false,
  skip_hypothetical: false,
  threshold: 0.5,
});
const hit = (tracker: TrackerDef, score: number | null): TrackerHit => ({
  tracker,
  segment: 0,
  t: 0,
  speaker: "customer",
  text: "x",
  sentence: "x",
  reason: { by: score === null ? "pattern" : "classifier", score },
});

describe("one objection kind per line", () => {
  const price = def("objection_price", "objection", "price");
  const contract = def("objection_contract", "objection", "contract");
  const trust = def("objection_trust", "objection", "trust");
  const pricing = def("signal_pricing_terms", "buying_signal", "pricing_terms");

  it("keeps the kind scored highest and drops a runner-up under 0.9", () => {
    const kept = oneKindPerLine([hit(contract, 0.62), hit(price, 0.97)]);
    expect(kept.map((h) => h.tracker.id)).toEqual(["objection_price"]);
  });

  it("keeps a second kind its model is as sure of, hits without a score, and other categories", () => {
    const kept = oneKindPerLine([hit(price, 0.99), hit(contract, 0.93), hit(trust, null), hit(pricing, 0.55)]);
    expect(kept.map((h) => h.tracker.id)).toEqual(["objection_price", "objection_contract", "objection_trust", "signal_pricing_terms"]);
  });

  it("applies inside detect: a line the models read as two kinds reports the one they are surest of", () => {
    // Both lines fire a second kind by itself (a pattern, or a model under 0.9): a contract worry read as trust too, a competitor as authority too.
    const lines = [
      "Is there a term? I got burned by a twelve-month thing with a payroll company before.",
      "And honestly, my nephew does our website. He knows this stuff pretty well.",
    ];
    const hits = detect(
      lines.map((text, i) => ({ t_start: i * 5, t_end: i * 5 + 4, speaker: "customer", text })),
      compiledTrackers(undefined),
    );
    const kinds = (i: number) => hits.filter((h) => h.segment === i && h.tracker.category === "objection").map((h) => h.tracker.type);
    expect(kinds(0)).toEqual(["contract"]);
    expect(kinds(1)).toEqual(["competitor"]);
  });
});
