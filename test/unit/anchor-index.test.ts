import { describe, expect, it } from "vitest";
import { compiledTrackers } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { AnchorIndex } from "../../src/trackers/anchor-index.js";
import { matchPattern, parsePattern } from "../../src/trackers/pattern.js";
import { readUtterance } from "../../src/trackers/text.js";
import { loadSplit } from "../eval/corpus.js";

const dev = loadSplit("dev");

/** "Could this pattern match the text?" as an index holding that pattern alone answers it. */
function mayMatchOf(source: string): (text: string) => boolean {
  const index = new AnchorIndex();
  const anchors = index.add(parsePattern(source));
  return (text) => {
    index.read(readUtterance(text)[0].tokens.filter((t) => !t.punct));
    return index.mayMatch(anchors);
  };
}

describe("anchor index", () => {
  it("never rules out a pattern that matches: every built-in pattern against every dev sentence", () => {
    const trackers = compiledTrackers(undefined);
    const index = new AnchorIndex();
    const chains = trackers.flatMap((t) => [...t.patterns, ...t.exclude]).map((p) => ({ chain: p.chain, anchors: index.add(p.chain) }));
    let matched = 0;
    let ruledOut = 0;
    for (const call of dev)
      for (const line of call.lines)
        for (const s of readUtterance(line.text)) {
          const words = s.tokens.filter((t) => !t.punct);
          index.read(words);
          for (const c of chains) {
            const may = index.mayMatch(c.anchors);
            const hit = matchPattern(c.chain, words) !== null;
            if (hit) {
              matched++;
              expect(may).toBe(true);
            } else if (!may) ruledOut++;
          }
        }
    expect(matched).toBeGreaterThan(50);
    // The index is worth having: most pattern/sentence pairs are ruled out without matching.
    expect(ruledOut).toBeGreaterThan(matched);
  });

  it("requires every plain word of every part, and one of a part's first words", () => {
    const may = mayMatchOf('(only|every) NEAR/4 claim* BEFORE/3 "paid out"');
    expect(may("Every claimant got paid out.")).toBe(true);
    expect(may("Every claimant got paid.")).toBe(false);
    expect(may("Most claims were paid out.")).toBe(false);
    expect(may("Only claims paid in full.")).toBe(false);
  });

  it("requires one alternative of a group that is not optional, and nothing of an optional one", () => {
    const may = mayMatchOf("(my|the) (big |main )?(worry|concern (here|though)) (now|today)");
    expect(may("My worry now is the price.")).toBe(true);
    expect(may("The big concern here today.")).toBe(true);
    expect(may("The big problem is the price today.")).toBe(false);
    expect(may("My worry is the price.")).toBe(false);
    // A group whose alternatives may all be left out is optional too.
    expect(matchPattern(parsePattern("((very )?|quite) good"), readUtterance("Good.")[0].words)).not.toBeNull();
    expect(mayMatchOf("((very )?|quite) good")("Good.")).toBe(true);
  });
});
