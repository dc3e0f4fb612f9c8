import { describe, expect, it } from "vitest";
import { loadSplit } from "./corpus.js";
import { prf } from "./detections.js";
import { groupTally, scoreCorpus } from "./score-corpus.js";

/**
 * The accuracy floors of the rules analyzer, asserted on the held-out TEST
 * split (test/eval/corpus/test), which is never used for tuning. Where that
 * split is absent (branches that must not see it), the suite is skipped with
 * a loud message instead of passing quietly.
 */
const calls = loadSplit("test");
const absent = calls.length === 0;
if (absent) {
  console.warn(
    "\n!!!!!!!! floors.test.ts: test/eval/corpus/test has no files: the accuracy floors were NOT checked. " +
      "Merge the eval-test branch and run `npx vitest run test/eval/floors.test.ts`. !!!!!!!!\n",
  );
}

describe.skipIf(absent)("accuracy floors on the held-out test split (rules analyzer)", async () => {
  const f = absent ? null : await scoreCorpus(calls);
  const figures = (prefix: string) => prf(groupTally(f!.callLevel, prefix));

  it("has a corpus worth measuring", () => {
    expect(f!.calls).toBeGreaterThanOrEqual(20);
  });

  it("objections: recall >= 0.80 at precision >= 0.85", () => {
    const p = figures("objection:");
    expect(p.precision).toBeGreaterThanOrEqual(0.85);
    expect(p.recall).toBeGreaterThanOrEqual(0.8);
  });

  it("buying signals: recall >= 0.70 at precision >= 0.80", () => {
    const p = figures("signal:");
    expect(p.precision).toBeGreaterThanOrEqual(0.8);
    expect(p.recall).toBeGreaterThanOrEqual(0.7);
  });

  it("breaches: recall >= 0.95, and no false alarm on a clean call", () => {
    expect(f!.breachRecall.found / Math.max(1, f!.breachRecall.expected)).toBeGreaterThanOrEqual(0.95);
    expect(f!.cleanFalseAlarms).toBe(0);
  });

  it("recording disclosure right on >= 95 % of calls", () => {
    expect(f!.disclosureRight / f!.calls).toBeGreaterThanOrEqual(0.95);
  });

  it("outcome right on >= 80 % of calls", () => {
    expect(f!.outcomeRight / f!.calls).toBeGreaterThanOrEqual(0.8);
  });

  it("next step (agreed or not) right on >= 85 % of calls", () => {
    expect(f!.nextStepRight / f!.calls).toBeGreaterThanOrEqual(0.85);
  });
});
