import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBinary, runBinary } from "../helpers/binary.js";
import { tempDir } from "../helpers/services.js";

// The executable carries the NLP model and the trained weights: run from an empty directory.
describe("trackers in the executable", () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => {
    ensureBinary();
    ({ dir, cleanup } = tempDir("callreview-trackers-"));
  }, BUILD_TIMEOUT_MS);
  afterAll(() => cleanup());

  it("trackers test explains built-in hits (classifier and pattern) from an empty directory", () => {
    const r = runBinary(
      [
        "trackers",
        "test",
        "builtin",
        "--speaker",
        "customer",
        "--text",
        // An objection and a buying signal: one line reports one objection kind (engine.ts), so the two kinds come from two categories.
        "That's north of what we set aside. So who on our end would get trained, and when?",
        "--json",
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    const hits: Array<{ type: string; by: string }> = JSON.parse(r.stdout).segments[0].hits;
    expect(hits.map((h) => h.type)).toEqual(expect.arrayContaining(["price", "implementation"]));
    expect(new Set(hits.map((h) => h.by))).toEqual(new Set(["pattern", "classifier"]));
  });

  it("trackers test trains a company tracker given by examples alone", () => {
    const file = path.join(dir, "t.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        trackers: [
          {
            id: "objection_union",
            category: "objection",
            type: "union",
            speaker: "customer",
            examples: [
              "The union has to agree to any new scheduling tool.",
              "Our union rep needs to see this before anything changes.",
              "Anything touching shifts goes through the union first.",
              "We'd need the union on board before a trial.",
            ],
          },
        ],
      }),
    );
    const r = runBinary(["trackers", "test", file, "--speaker", "customer", "--text", "Honestly the union would have to sign off on that first.", "--json"], {
      cwd: dir,
    });
    expect(r.code).toBe(0);
    const hit = JSON.parse(r.stdout).segments[0].hits.find((h: { tracker: string }) => h.tracker === "objection_union");
    expect(hit).toMatchObject({ by: "classifier", source: "file", category: "objection", type: "union" });
    expect(hit.score).toBeGreaterThanOrEqual(0.5);
  });
});
