import path from "node:path";
import { submitWaitArgs } from "../helpers/cli.js";
import { describe, expect, it } from "vitest";
import { runBinary } from "../helpers/binary.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

describe("submit through the executable", () => {
  it("submit --wait --json finishes without a server; report and calls read it back", () => {
    const { dir, cleanup } = tempDir();
    try {
      const base = ["--data-dir", dir, "--models-dir", path.join(dir, "models")];
      expect(runBinary([...base, "company", "create", "Acme"]).code).toBe(0);
      const r = runBinary(submitWaitArgs(dir, fixture("jfk.wav"), "--customer-name", "Jack"));
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({
        call_id: 1,
        processing_status: "complete",
        report_status: "ready",
        customer_name: "Jack",
        report_url: "/api/v1/calls/1/report",
      });
      const rep = runBinary([...base, "report", "1", "--json"]);
      expect(JSON.parse(rep.stdout).report.confidence_level).toBe("low");
      const bad = runBinary([...base, "submit", path.join(dir, "callreview.db"), "--company", "1"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr.trim().split("\n")).toHaveLength(1);
      expect(bad.stderr).toMatch(/not a supported audio type/);
    } finally {
      cleanup();
    }
  });
});
