import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli, json, submitWaitArgs } from "../helpers/cli.js";
import { tempDir } from "../helpers/services.js";

const SRT = `1
00:00:00,500 --> 00:00:04,000
Dana: Hi, this call is being recorded. What does your week look like?

2
00:00:04,400 --> 00:00:07,250
Omar: Busy. Honestly your quote was more than we budgeted.
`;

describe("callreview submit --transcript", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("submits a call with its transcript; the rules analyzer reads it even in placeholder mode", async () => {
    await cli(["--data-dir", dir, "company", "create", "Acme"]);
    const file = path.join(dir, "call.srt");
    fs.writeFileSync(file, SRT);
    const r = await cli(submitWaitArgs(dir, "--transcript", file, "--rep-speaker", "Dana"));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ call_id: 1, processing_status: "complete", report_status: "ready" });
    const report = json((await cli(["--data-dir", dir, "report", "1", "--json"])).stdout).report;
    expect(report.summary).not.toMatch(/^Placeholder/);
    expect(report.objections[0].objection).toContain("Honestly your quote was more than we budgeted.");
    expect(report.objections[0].raised_by).toBe("customer");
  });

  it("refuses a bad transcript in one line naming the cue, and creates no call", async () => {
    await cli(["--data-dir", dir, "company", "create", "Acme"]);
    const file = path.join(dir, "bad.srt");
    fs.writeFileSync(file, SRT.replace("00:00:04,400 --> 00:00:07,250", "00:00:07,250 --> 00:00:04,400"));
    const r = await cli(["--data-dir", dir, "submit", "--transcript", file, "--company", "1"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/bad\.srt: cue 2 \(line 5\): ends \(4\.4s\) before it starts \(7\.25s\)/);
    const calls = json((await cli(["--data-dir", dir, "calls", "list", "--company", "1", "--json"])).stdout);
    expect(Array.isArray(calls) ? calls : calls.data).toHaveLength(0);
    const nothing = await cli(["--data-dir", dir, "submit", "--company", "1"]);
    // Nothing to act on is a usage error.
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/nothing to submit/);
  });
});
