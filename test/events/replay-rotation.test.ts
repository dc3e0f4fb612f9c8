import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { replayDelivery, replayFailedSince } from "../../src/events/deliveries.js";
import { Dispatcher } from "../../src/events/dispatcher.js";
import { createWebhookEndpoint, removeWebhookEndpoint, rotateWebhookSecret } from "../../src/events/endpoints.js";
import { fanOutBatch } from "../../src/events/fan-out.js";
import { RETRY_DELAYS_MS } from "../../src/events/retry-schedule.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { silentLogger } from "../../src/logger.js";
import { startService } from "../../src/serve.js";
import { createCompany } from "../../src/store/companies.js";
import { testConfig, testServices } from "../helpers/services.js";
import { ManualClock, startReceiver, type Receiver } from "./receiver.js";

type S = Awaited<ReturnType<typeof testServices>>;

describe("replay and secret rotation", () => {
  let s: S;
  let clock: ManualClock;
  let companyId: number;
  let r: Receiver;
  let d: Dispatcher;

  beforeEach(async () => {
    clock = new ManualClock();
    s = await testServices({}, { clock });
    companyId = (await createCompany(s.store.db, { name: "Acme" })).id;
    r = await startReceiver({ nowSeconds: () => clock.seconds() });
    d = new Dispatcher(s.store.db, clock, silentLogger, { timeoutMs: 2_000, random: () => 0.5 });
  });
  afterEach(async () => {
    await d.stop();
    await r.close();
    await s.dispose();
  });
  const accept = (id: string) => acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: id } }, clock.now());

  it("replay sends a delivered event again with a new timestamp and signature and the same event id", async () => {
    const ep = await createWebhookEndpoint(s.store.db, { companyId, url: r.url }, clock.now());
    r.secrets = [ep.secret];
    await accept("rp-1");
    await d.drain();
    clock.advance(3_600_000);
    const replayed = await replayDelivery(s.store.db, 1, clock.now());
    expect(replayed).toMatchObject({ id: 1, status: "pending", attempts: 1 });
    await d.drain();
    expect(r.received).toHaveLength(2);
    const [a, b] = r.received;
    expect(b.headers["x-service-event-id"]).toBe(a.headers["x-service-event-id"]);
    expect(b.raw.equals(a.raw)).toBe(true);
    expect(b.t).toBe(a.t + 3600);
    expect(b.headers["x-service-signature"]).not.toBe(a.headers["x-service-signature"]);
    expect(b.verified).toEqual([true]);
    const attempts = await s.store.db.selectFrom("webhook_attempts").selectAll().orderBy("id").execute();
    expect(attempts.map((x) => x.trigger)).toEqual(["scheduled", "replay"]);
    expect((await s.store.db.selectFrom("webhook_deliveries").selectAll().executeTakeFirstOrThrow()).attempts).toBe(2);
  });

  it("replay --failed --since brings back deliveries that exhausted their retries during an outage", async () => {
    let down = true;
    r.answer = () => ({ status: down ? 503 : 200 });
    await createWebhookEndpoint(s.store.db, { companyId, url: r.url }, clock.now());
    const since = clock.now().toISOString();
    await accept("out-1");
    await accept("out-2");
    await d.drain();
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay);
      await d.drain();
    }
    const failed = await s.store.db.selectFrom("webhook_deliveries").selectAll().execute();
    expect(failed.map((x) => x.status)).toEqual(["failed", "failed"]);
    expect(r.received).toHaveLength(18);

    down = false;
    const result = await replayFailedSince(s.store.db, since, {}, clock.now());
    expect(result).toEqual({ replayed: [1, 2], skipped: [] });
    await d.drain();
    const after = await s.store.db.selectFrom("webhook_deliveries").selectAll().execute();
    expect(after.map((x) => [x.status, x.attempts])).toEqual([
      ["delivered", 10],
      ["delivered", 10],
    ]);
    // Nothing older than --since is touched.
    expect((await replayFailedSince(s.store.db, clock.now().toISOString(), {}, clock.now())).replayed).toEqual([]);
  });

  it("a failed replay gets the whole retry schedule again", async () => {
    r.answer = () => ({ status: 500 });
    await createWebhookEndpoint(s.store.db, { companyId, url: r.url }, clock.now());
    await accept("again-1");
    await d.drain();
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay);
      await d.drain();
    }
    await replayDelivery(s.store.db, 1, clock.now());
    await d.drain();
    const row = await s.store.db.selectFrom("webhook_deliveries").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "retrying", attempts: 10, retry_index: 1 });
    expect(row.next_attempt_at).toBe(new Date(clock.ms + 30_000).toISOString());
  });

  it("replay of an unknown delivery or of a removed endpoint's delivery is refused", async () => {
    await expect(replayDelivery(s.store.db, 99, clock.now())).rejects.toMatchObject({ code: "not_found" });
    const ep = await createWebhookEndpoint(s.store.db, { companyId, url: r.url }, clock.now());
    await accept("rm-1");
    await fanOutBatch(s.store.db, clock.now());
    expect((await removeWebhookEndpoint(s.store.db, ep.id, clock.now())).cancelled).toBe(1);
    await d.drain();
    expect(r.received).toHaveLength(0);
    expect(await s.store.db.selectFrom("webhook_deliveries").selectAll().executeTakeFirstOrThrow()).toMatchObject({
      status: "failed",
      last_error: "endpoint removed",
    });
    await expect(replayDelivery(s.store.db, 1, clock.now())).rejects.toMatchObject({ code: "conflict" });
  });

  it("after a rotation both secrets sign for 24 h, then only the new one", async () => {
    const created = await createWebhookEndpoint(s.store.db, { companyId, url: r.url }, clock.now());
    const rotated = await rotateWebhookSecret(s.store.db, created.id, clock.now());
    expect(rotated.secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret_expires_at).toBe(new Date(clock.ms + 86_400_000).toISOString());
    r.secrets = [created.secret, rotated.secret];

    await accept("rot-1");
    await d.drain();
    const during = r.received[0];
    expect(during.headers["x-service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(during.verified).toEqual([true, true]); // a receiver with only the old secret still verifies

    clock.advance(86_400_000 - 1_000);
    await accept("rot-2");
    await d.drain();
    expect(r.received[1].verified).toEqual([true, true]);

    clock.advance(1_000);
    await accept("rot-3");
    await d.drain();
    const after = r.received[2];
    expect(after.headers["x-service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(after.verified).toEqual([false, true]);
  });
});

describe("the dispatcher inside serve", () => {
  it("delivers events while serving and resumes pending work after a restart", async () => {
    const { dir, cleanup } = (await import("../helpers/services.js")).tempDir();
    const r = await startReceiver();
    try {
      const config = testConfig(dir, { port: 0, workers: 0 }); // API and webhooks only: just call.received per call
      let running = await startService(config, { logger: silentLogger, dispatcher: { pollMs: 20, timeoutMs: 2_000 } });
      const company = await createCompany(running.services.store.db, { name: "Acme" });
      const ep = await createWebhookEndpoint(running.services.store.db, { companyId: company.id, url: r.url });
      r.secrets = [ep.secret];
      await acceptCall(running.services.store.db, { companyId: company.id, intake: "api", fields: { external_call_id: "s-1" } });
      await r.waitFor(1);
      await running.stop();

      // Accepted while no server runs: delivered by the next one.
      const { createServices } = await import("../../src/services.js");
      const offline = await createServices(config, { logger: silentLogger });
      await acceptCall(offline.store.db, { companyId: company.id, intake: "api", fields: { external_call_id: "s-2" } });
      await offline.close();
      running = await startService(config, { logger: silentLogger, dispatcher: { pollMs: 20, timeoutMs: 2_000 } });
      await r.waitFor(2);
      await running.stop();
      expect(r.received.map((x) => x.body.data.external_call_id)).toEqual(["s-1", "s-2"]);
      expect(r.received.every((x) => x.verified[0])).toBe(true);
    } finally {
      await r.close();
      cleanup();
    }
  });

  it("delivers a call's whole lifecycle, report included, when the pipeline runs in the same serve", async () => {
    const { dir, cleanup } = (await import("../helpers/services.js")).tempDir();
    const r = await startReceiver();
    try {
      const running = await startService(testConfig(dir, { port: 0, workers: 1 }), { logger: silentLogger, dispatcher: { pollMs: 20, timeoutMs: 2_000 } });
      try {
        const company = await createCompany(running.services.store.db, { name: "Acme" });
        const ep = await createWebhookEndpoint(running.services.store.db, { companyId: company.id, url: r.url });
        r.secrets = [ep.secret];
        await acceptCall(running.services.store.db, { companyId: company.id, intake: "api", fields: { external_call_id: "life-1", crm_contact_id: "crm-9" } });
        const expected = ["call.received", "call.processing_started", "call.analysis_completed", "call.report_completed"];
        const deadline = Date.now() + 30_000;
        while (!expected.every((t) => r.received.some((x) => x.body.type === t)) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
      } finally {
        await running.stop();
      }
      const types = r.received.map((x) => x.body.type);
      for (const t of ["call.received", "call.processing_started", "call.analysis_completed", "call.report_completed"]) expect(types).toContain(t);
      expect(r.received.every((x) => x.verified[0] && x.headers["x-service-event"] === x.body.type)).toBe(true);
      expect(new Set(r.received.map((x) => x.headers["x-service-event-id"])).size).toBe(r.received.length);
      const done = r.received.find((x) => x.body.type === "call.report_completed")!.body;
      expect(done.data).toMatchObject({ crm_contact_id: "crm-9", external_call_id: "life-1", call: { processing_status: "complete", report_status: "ready" } });
      expect(typeof done.data.report.overall_score).toBe("number");
    } finally {
      await r.close();
      cleanup();
    }
  });
});
