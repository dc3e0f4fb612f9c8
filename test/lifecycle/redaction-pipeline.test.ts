import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Dispatcher } from "../../src/events/dispatcher.js";
import { createWebhookEndpoint } from "../../src/events/endpoints.js";
import { silentLogger } from "../../src/logger.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { updateCompany } from "../../src/store/companies.js";
import { startReceiver, type Receiver } from "../events/receiver.js";
import { apiHarness, type ApiHarness } from "../helpers/api.js";
import { cli, json, submitWaitArgs } from "../helpers/cli.js";
import { filesContaining } from "../helpers/data-dir.js";
import { tempDir } from "../helpers/services.js";

const SPOKEN = "four one one one one one one one one one one one one one one one";
const VTT = `WEBVTT

00:00:00.500 --> 00:00:04.000
<v Anna>Hi Ben, this call is being recorded. Can I take your card number to set up the order?

00:00:04.400 --> 00:00:09.000
<v Ben>Sure, it's ${SPOKEN}, expiry twelve twenty six.
`;

describe("transcripts are redacted before they are stored", () => {
  let h: ApiHarness;
  let r: Receiver;
  beforeEach(async () => {
    h = await apiHarness();
    r = await startReceiver();
  });
  afterEach(async () => {
    await r.close();
    await h.dispose();
  });

  async function importAndAnalyze(external: string): Promise<number> {
    const id = (await (await h.postJson("/v1/calls", { external_call_id: external })).json()).call_id as number;
    const imp = await h.request(`/v1/calls/${id}/transcript?rep_speaker=Anna`, { method: "POST", body: VTT, headers: { "content-type": "text/vtt" } });
    expect(imp.status).toBe(202);
    expect((await runOnce(h.s))?.result).toBe("completed");
    return id;
  }

  it("a spoken card number is stored, reported and sent only as [CARD]; the card-number compliance alert still fires", async () => {
    const ep = await createWebhookEndpoint(h.s.store.db, { companyId: h.company.id, url: r.url });
    r.secrets = [ep.secret];
    const id = await importAndAnalyze("red-1");

    const row = await h.s.store.db.selectFrom("transcripts").select("segments").where("call_id", "=", id).executeTakeFirstOrThrow();
    expect(row.segments).toContain("[CARD]");
    expect(row.segments).toContain("[EXPIRY]");
    expect(row.segments).not.toContain("four one one");

    const t = await (await h.request(`/v1/calls/${id}/transcript`)).json();
    expect(t.segments[1].text).toBe("Sure, it's [CARD], expiry [EXPIRY].");
    const report = (await (await h.request(`/v1/calls/${id}/report`)).json()).report;
    const alert = report.compliance_alerts.find((a: { type: string }) => a.type === "payment_data_request");
    expect(alert?.detail).toContain("card number");
    expect(JSON.stringify(report)).not.toContain("four one one");

    await new Dispatcher(h.s.store.db, h.s.clock, silentLogger, { timeoutMs: 2_000 }).drain();
    expect(r.received.map((x) => x.body.type)).toContain("call.compliance_alert_detected");
    for (const x of r.received) expect(x.raw.toString()).not.toContain("four one one");
    expect(filesContaining(h.s.dir, "four one one one")).toEqual([]);
  });

  it("--redact none keeps the words as said", async () => {
    await updateCompany(h.s.store.db, h.company.id, { settings: { redact: [] } });
    const id = await importAndAnalyze("red-2");
    const t = await (await h.request(`/v1/calls/${id}/transcript`)).json();
    expect(t.segments[1].text).toContain(SPOKEN);
  });
});

describe("company update --redact and submit --transcript (CLI)", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("sets the kinds, refuses unknown ones, and redacts a transcript brought with the call", async () => {
    await cli(["--data-dir", dir, "company", "create", "Acme"]);
    const bad = await cli(["--data-dir", dir, "company", "update", "1", "--redact", "card,cvv"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/invalid --redact "card,cvv"/);
    const ok = await cli(["--data-dir", dir, "company", "update", "1", "--redact", "card,email", "--json"]);
    expect(ok.code).toBe(0);
    expect(json(ok.stdout).settings.redact).toEqual(["card", "email"]);

    const file = path.join(dir, "call.vtt");
    fs.writeFileSync(file, VTT.replace("expiry twelve twenty six.", "mail me at ben@example.com"));
    const sub = await cli(submitWaitArgs(dir, "--transcript", file, "--rep-speaker", "Anna"));
    expect(sub.stderr).toBe("");
    const shown = await cli(["--data-dir", dir, "calls", "show", "1", "--transcript", "--json"]);
    const text = JSON.stringify(json(shown.stdout).transcript);
    expect(text).toContain("[CARD]");
    expect(text).toContain("[EMAIL]");
    expect(text).not.toContain("ben@example.com");
    const audit = json((await cli(["--data-dir", dir, "audit", "list", "--call", "1", "--json"])).stdout);
    expect(audit.map((e: { action: string; actor: string }) => [e.action, e.actor])).toEqual([["transcript.read", "cli"]]);
  });
});
