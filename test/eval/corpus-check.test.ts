import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR, type CorpusCall } from "./corpus.js";
import { corpusProblems } from "./corpus-check.js";

const wellFormed: CorpusCall = {
  id: "x-01",
  industry: "example",
  description: "A call for the checker's own tests.",
  outcome: "closed_won",
  next_step_agreed: true,
  disclosure: "on_time",
  lines: [
    { s: "R", t: 0, text: "Hi, this call is recorded. How do you handle it today?", labels: ["disclosure", "discovery_question"] },
    { s: "C", text: "Fine, let's do it, send the contract and I'll sign Thursday.", labels: ["signal:commitment", "next_step"] },
    ...Array.from({ length: 18 }, (_, i) => ({ s: (i % 2 ? "C" : "R") as "R" | "C", text: "Okay.", labels: [] })),
  ],
};

describe("the labelled corpus checker", () => {
  it("passes a well-formed call", () => {
    expect(corpusProblems(wellFormed, "x-01")).toEqual([]);
  });

  it("names each problem", () => {
    const bad: CorpusCall = {
      ...wellFormed,
      disclosure: "late",
      outcome: "closed_won",
      lines: wellFormed.lines.map((l, i) => (i === 1 ? { ...l, labels: ["objection:pricey", "breach:pressure"] } : l)),
    };
    const problems = corpusProblems(bad, "x-02");
    expect(problems).toEqual(
      expect.arrayContaining([
        "id x-01 differs from the file name",
        "line 1: unknown label objection:pricey",
        "line 1: breach:pressure is a rep label",
        "late, but the first disclosure is at 0",
        "closed_won without a signal:commitment line",
        "next_step_agreed without a next_step line",
      ]),
    );
  });
});

for (const split of ["dev", "test"]) {
  const dir = path.join(CORPUS_DIR, split);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".json")) : [];
  describe.skipIf(files.length === 0)(`corpus/${split}: every call is well formed`, () => {
    it.each(files)("%s", (file) => {
      const call = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as CorpusCall;
      expect(corpusProblems(call, file.replace(/\.json$/, ""))).toEqual([]);
    });
  });
}
