import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ReportSchema } from "../../src/report/schema.js";
import { runBinary, startServeBinary, waitForAnalyzedReport } from "../helpers/binary.js";
import { tempDir } from "../helpers/services.js";
import { cli, json } from "../helpers/cli.js";
import { createCallWithVtt, VTT_CALL_ALERTS } from "../helpers/import-vtt.js";
import { fixture, VTT } from "../helpers/fixtures.js";

describe("imported transcript through the executable (serve, placeholder pipeline)", () => {
  it("POST /api/v1/calls/{id}/transcript leads to a stored, schema-valid rules report; healthz names the analyzer", async () => {
    const { dir, cleanup } = tempDir();
    const base = ["--data-dir", dir, "--models-dir", path.join(dir, "models")];
    let serve: Awaited<ReturnType<typeof startServeBinary>> | undefined;
    try {
      expect(runBinary([...base, "company", "create", "Acme"]).code).toBe(0);
      const key = JSON.parse(runBinary([...base, "key", "create", "--company", "1", "--json"]).stdout).key as string;
      serve = await startServeBinary([...base, "--pipeline", "placeholder", "--workers", "1"]);
      const health = await (await fetch(`${serve.url}/healthz`)).json();
      expect(health).toMatchObject({ pipeline: "placeholder", analyzer: "rules" });
      const auth = { authorization: `Bearer ${key}` };
      const callId = await createCallWithVtt(serve.url, auth, "t-1");
      const report = await waitForAnalyzedReport(serve.url, callId, auth, 200);
      expect(ReportSchema.safeParse(report).success).toBe(true);
      expect(report.summary).not.toMatch(/^Placeholder/);
      expect(report.compliance_alerts.map((a: { type: string }) => a.type).sort()).toEqual(VTT_CALL_ALERTS);
      // Each objection quotes the sentence that carries it (the doubt and the budget are two).
      expect(report.objections.find((o: { objection: string }) => o.objection.startsWith("price at"))?.objection).toContain(
        "It's more than we budgeted anyway.",
      );
    } finally {
      await serve?.stop();
      cleanup();
    }
  });

  it("analyze: rules in process; doctor picks llama for a present GGUF inside the executable", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, "call.vtt");
      fs.writeFileSync(file, VTT);
      const r = await cli(["--data-dir", dir, "analyze", file, "--rep-speaker", "Tony", "--analyzer", "rules"]);
      expect(r.code).toBe(0);
      const out = json(r.stdout);
      expect(out.analyzer).toBe("rules");
      expect(out.report.compliance_alerts.length).toBe(4);
      const doctor = JSON.parse(runBinary(["--data-dir", dir, "doctor", "--llm-model", fixture("stories260K.gguf"), "--json"]).stdout);
      expect(doctor.analyzer).toMatchObject({ configured: "auto", active: "llama", reason: "GGUF model present" });
    } finally {
      cleanup();
    }
  });
});
