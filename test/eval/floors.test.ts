import { describe, expect, it } from "vitest";
import { loadSplit } from "./corpus.js";
import { prf } from "./detections.js";
import { groupTally, scoreCorpus } from "./score-corpus.js";

/**
 * The accuracy floors of the rules analyzer on the held-out TEST split
 * (test/eval/corpus/test), which is never used for tuning. Each figure has the
 * product's target and a guard: where the target is met the guard is the
 * target; where it is not yet met (README "Known limits") the guard sits just
 * under today's figure, so a change that makes the analyzer worse on unseen
 * calls fails here. Raise a guard to its target once the target holds. Where
 * the split is absent (branches that must not see it) the suite is skipped
 * with a loud message instead of passing quietly.
 */
const calls = loadSplit("test");
const absent = calls.length === 0;
if (absent) {
  console.warn(
    "\n!!!!!!!! floors.test.ts: test/eval/corpus/test has no files: the accuracy floors were NOT checked. " +
      "Add the held-out split and run `npx vitest run test/eval/floors.test.ts`. !!!!!!!!\n",
  );
}

interface Floor {
  name: string;
  target: number;
  guard: number;
  actual: (f: Awaited<ReturnType<typeof scoreCorpus>>) => number;
}

const callLevel = (f: Awaited<ReturnType<typeof scoreCorpus>>, prefix: string) => prf(groupTally(f.callLevel, prefix));

const FLOORS: Floor[] = [
  { name: "objections precision", target: 0.85, guard: 0.78, actual: (f) => callLevel(f, "objection:").precision },
  { name: "objections recall", target: 0.8, guard: 0.8, actual: (f) => callLevel(f, "objection:").recall },
  { name: "buying signals precision", target: 0.8, guard: 0.8, actual: (f) => callLevel(f, "signal:").precision },
  { name: "buying signals recall", target: 0.7, guard: 0.7, actual: (f) => callLevel(f, "signal:").recall },
  { name: "breach recall", target: 0.95, guard: 0.95, actual: (f) => f.breachRecall.found / Math.max(1, f.breachRecall.expected) },
  { name: "clean calls without a false alarm", target: 1, guard: 1, actual: (f) => 1 - f.cleanFalseAlarms / Math.max(1, f.cleanCalls) },
  { name: "disclosure right", target: 0.95, guard: 0.95, actual: (f) => f.disclosureRight / f.calls },
  { name: "outcome right", target: 0.8, guard: 0.8, actual: (f) => f.outcomeRight / f.calls },
  { name: "next step right", target: 0.85, guard: 0.85, actual: (f) => f.nextStepRight / f.calls },
];

describe.skipIf(absent)("accuracy floors on the held-out test split (rules analyzer)", async () => {
  const f = absent ? null : await scoreCorpus(calls);

  it("has a corpus worth measuring", () => {
    expect(f!.calls).toBeGreaterThanOrEqual(20);
  });

  it("every guard is at most its target (a guard above it would hide a met target)", () => {
    for (const floor of FLOORS) expect(floor.guard).toBeLessThanOrEqual(floor.target);
  });

  for (const floor of FLOORS) {
    it(`${floor.name} >= ${floor.guard}${floor.guard < floor.target ? ` (target ${floor.target}, not yet met)` : ""}`, () => {
      const value = floor.actual(f!);
      if (value < floor.target) console.warn(`floors: ${floor.name} ${value.toFixed(2)} is under its target ${floor.target}`);
      expect(value).toBeGreaterThanOrEqual(floor.guard);
    });
  }
});
