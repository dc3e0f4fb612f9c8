import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli, json } from "../helpers/cli.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

describe("submit, calls and report commands (in process)", () => {
  let dir: string;
  let cleanup: () => void;
  const env = () => ({ CALLREVIEW_PIPELINE: "placeholder", CALLREVIEW_MODELS_DIR: path.join(dir, "models") });
  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    await cli(["--data-dir", dir, "company", "create", "Acme"]);
  });
  afterEach(() => cleanup());

  it("submit --wait --json runs the pipeline in process and ends complete; calls and report read it back", async () => {
    const r = await cli(
      ["--data-dir", dir, "submit", fixture("jfk.wav"), fixture("jfk.mp3"), "--company", "1", "--rep-name", "Ann", "--wait", "--json"],
      env(),
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const calls = json(r.stdout);
    expect(calls).toHaveLength(2);
    for (const c of calls)
      expect(c).toMatchObject({ processing_status: "complete", report_status: "ready", overall_score: expect.any(Number), placeholder_report: true });
    // Chosen explicitly (CALLREVIEW_PIPELINE=placeholder), so no warning on stderr; --json still marks each call.

    const list = json((await cli(["--data-dir", dir, "calls", "list", "--json"], env())).stdout);
    expect(list.map((c: { call_id: number }) => c.call_id)).toEqual([2, 1]);
    const show = json((await cli(["--data-dir", dir, "calls", "show", "1", "--json"], env())).stdout);
    expect(show.history.map((h: { to: string }) => h.to)).toEqual(["queued", "transcribing", "analyzing", "complete"]);

    const rep = json((await cli(["--data-dir", dir, "report", "1", "--json"], env())).stdout);
    expect(rep.call_id).toBe(1);
    expect(rep.report.overall_score).toBe(calls[0].overall_score);
    expect(rep.report.summary).toMatch(/^Placeholder analysis/);
    const text = await cli(["--data-dir", dir, "report", "1"], env());
    expect(text.stdout).toContain(`Overall score ${rep.report.overall_score}/100`);
  });

  it("submit without --wait prints the call ids; the report is not ready yet", async () => {
    const r = await cli(["--data-dir", dir, "submit", fixture("jfk.wav"), "--company", "1", "--json"], env());
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ call_id: 1, status: "received", processing_status_url: "/api/v1/calls/1" });
    const rep = await cli(["--data-dir", dir, "report", "1"], env());
    expect(rep.code).toBe(1);
    expect(rep.stderr).toMatch(/no report yet \(status queued\)/);
  });

  it("rejects what an upload would reject, leaving nothing behind", async () => {
    const txt = path.join(dir, "notes.txt");
    fs.writeFileSync(txt, "not audio at all, just text");
    const r = await cli(["--data-dir", dir, "submit", txt, "--company", "1"], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a supported audio type/);
    const missing = await cli(["--data-dir", dir, "submit", path.join(dir, "nope.wav"), "--company", "1"], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read/);
    const noCompany = await cli(["--data-dir", dir, "submit", fixture("jfk.wav"), "--company", "9"], env());
    // A company that does not exist: exit code 3, like every "not found".
    expect(noCompany.code).toBe(3);
    expect(noCompany.stderr).toMatch(/company 9 not found/);
    const big = await cli(["--data-dir", dir, "submit", fixture("jfk.wav"), "--company", "1", "--max-upload-mb", "0"], env());
    // --max-upload-mb 0 is outside the setting's range: a bad flag value, exit code 2.
    expect(big.code).toBe(2);
    const list = json((await cli(["--data-dir", dir, "calls", "list", "--json"], env())).stdout);
    expect(list).toEqual([]);
    expect(fs.readdirSync(path.join(dir, "audio", "tmp"))).toEqual([]);
  });

  it("calls show / report on an unknown call fail with one line", async () => {
    const r = await cli(["--data-dir", dir, "calls", "show", "42"], env());
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toBe("callreview: call 42 not found");
  });
});
