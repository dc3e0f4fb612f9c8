import { VTT_CALL_ALERTS } from "../helpers/import-vtt.js";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { createApp } from "../../src/http/app.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { ReportSchema } from "../../src/report/schema.js";
import { createCompany } from "../../src/store/companies.js";
import { listReports } from "../../src/store/reports.js";
import { scriptedCall } from "../eval/calls.js";
import { testServices } from "../helpers/services.js";

/** A scripted call as WebVTT, speakers named as a dialer would name them. */
function vttOf(id: string): string {
  const cues = scriptedCall(id).transcript.segments.map((s) => {
    const ts = (t: number) => new Date(t * 1000).toISOString().slice(11, 23);
    return `${ts(s.t_start)} --> ${ts(s.t_end)}\n<v ${s.speaker === "rep" ? "Tony Rep" : "Mr Ellis"}>${s.text}`;
  });
  return `WEBVTT\n\n${cues.join("\n\n")}\n`;
}

function manualClock(start = Date.now() + 1000) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

describe("imported transcript end to end (placeholder pipeline, real worker)", () => {
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await dispose?.();
    dispose = undefined;
  });

  async function setup(overrides = {}) {
    const clock = manualClock();
    const s = await testServices({ retryBaseMs: 1000, ...overrides }, { clock });
    dispose = s.dispose;
    const company = await createCompany(s.store.db, { name: "Acme" });
    const key = (await createApiKey(s.store.db, { companyId: company.id })).key;
    const { call } = await acceptCall(s.store.db, { companyId: company.id, intake: "api", fields: { external_call_id: "x1" } });
    const app = createApp(s);
    const post = (id: string) =>
      app.request(`/v1/calls/${call.id}/transcript?rep_speaker=Tony%20Rep`, {
        method: "POST",
        body: vttOf(id),
        headers: { "content-type": "text/vtt", authorization: `Bearer ${key}` },
      });
    const drain = async () => {
      const out = [];
      for (let i = 0; i < 20; i++) {
        const o = await runOnce(s, {});
        clock.advance(10 * 60_000);
        if (!o) break;
        out.push(o);
      }
      return out;
    };
    return { s, app, key, call, post, drain };
  }

  it("stores a schema-valid rules report with the compliance alerts, and re-analyses a re-import", async () => {
    const { s, app, key, call, post, drain } = await setup();
    expect(s.pipeline).toBe("placeholder");
    expect((await post("compliance_investment")).status).toBe(202);
    expect((await drain()).map((o) => o.result)).toEqual(["completed"]);

    const res = await app.request(`/v1/calls/${call.id}/report`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const { report } = await res.json();
    expect(ReportSchema.safeParse(report).success).toBe(true);
    expect(report.summary).not.toMatch(/^Placeholder/);
    expect(report.compliance_alerts.map((a: { type: string }) => a.type).sort()).toEqual(VTT_CALL_ALERTS);
    expect(report.manager_review_required).toBe(true);
    const reports = await listReports(s.store.db, call.id);
    expect(reports.map((r) => r.analyzer)).toEqual(["rules"]);
    const events = (await s.store.db.selectFrom("events").select("type").where("call_id", "=", call.id).execute()).map((e) => e.type);
    expect(events).toContain("call.compliance_alert_detected");

    // A corrected transcript re-queues the finished call and gets its own report.
    expect((await post("careful_compliance")).status).toBe(202);
    expect((await drain()).map((o) => o.result)).toEqual(["completed"]);
    const again = await (await app.request(`/v1/calls/${call.id}/report`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(again.report.compliance_alerts).toEqual([]);
    expect((await listReports(s.store.db, call.id)).length).toBe(2);
  });

  it("an unreachable Ollama is retried, then the call fails with analysis_failed naming the cause", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const { s, call, post, drain } = await setup({ analyzer: "ollama", ollamaModel: "llama3.2:3b", ollamaUrl: `http://127.0.0.1:${port}` });
    expect(s.analyzer.active).toBe("ollama");
    expect((await post("good_won")).status).toBe(202);
    const outcomes = await drain();
    expect(outcomes.length).toBeGreaterThan(1);
    expect(outcomes.at(-1)!.result).toBe("failed");
    const row = await s.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ processing_status: "failed", failure_reason: "analysis_failed" });
    const job = await s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", call.id).executeTakeFirstOrThrow();
    expect(job.last_error).toMatch(/ollama server at http:\/\/127\.0\.0\.1:\d+ is unreachable/);
  });
});
