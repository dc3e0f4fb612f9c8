import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Dispatcher } from "../../src/events/dispatcher.js";
import { createWebhookEndpoint } from "../../src/events/endpoints.js";
import { RETRY_DELAYS_MS } from "../../src/events/retry-schedule.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { createLogger, silentLogger } from "../../src/logger.js";
import { claimDueDeliveries, LOST_ATTEMPT_ERROR } from "../../src/store/webhook-deliveries.js";
import { createServices } from "../../src/services.js";
import { createCompany } from "../../src/store/companies.js";
import { storeKinds, type StoreKind } from "../helpers/postgres.js";
import { testConfig, testServices } from "../helpers/services.js";
import { closedPortUrl, ManualClock, startReceiver, type Receiver } from "./receiver.js";

type S = Awaited<ReturnType<typeof testServices>>;

describe.each(storeKinds())("webhook dispatcher on $name", (kind: StoreKind) => {
  let s: S;
  let clock: ManualClock;
  let companyId: number;
  const receivers: Receiver[] = [];
  const dispatchers: Dispatcher[] = [];

  beforeEach(async () => {
    clock = new ManualClock();
    s = await testServices({ databaseUrl: await kind.freshDatabaseUrl() }, { clock });
    companyId = (await createCompany(s.store.db, { name: "Acme" })).id;
  });
  afterEach(async () => {
    for (const d of dispatchers.splice(0)) await d.stop();
    for (const r of receivers.splice(0)) await r.close();
    await s.dispose();
  });

  async function receiver(opts: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> {
    const r = await startReceiver({ nowSeconds: () => clock.seconds(), ...opts });
    receivers.push(r);
    return r;
  }
  function dispatcher(opts: ConstructorParameters<typeof Dispatcher>[3] = {}, db = s.store.db): Dispatcher {
    const d = new Dispatcher(db, clock, silentLogger, { timeoutMs: 2_000, random: () => 0.5, ...opts });
    dispatchers.push(d);
    return d;
  }
  async function endpoint(url: string, company = companyId, events?: Parameters<typeof createWebhookEndpoint>[1]["events"]) {
    return createWebhookEndpoint(s.store.db, { companyId: company, url, events }, clock.now());
  }
  const accept = (externalId: string, company = companyId) =>
    acceptCall(s.store.db, { companyId: company, intake: "api", fields: { external_call_id: externalId } }, clock.now());
  const delivery = async (id?: number) =>
    s.store.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .$if(id !== undefined, (q) => q.where("id", "=", id!))
      .orderBy("id")
      .executeTakeFirstOrThrow();
  const attempts = async (deliveryId: number) =>
    s.store.db.selectFrom("webhook_attempts").selectAll().where("delivery_id", "=", deliveryId).orderBy("id").execute();

  it("POSTs the outbox payload bytes exactly, with the spec's headers and a signature a spec-written receiver verifies", async () => {
    const r = await receiver();
    const ep = await endpoint(r.url);
    r.secrets = [ep.secret];
    await accept("x-1");
    await dispatcher().drain();

    expect(r.received).toHaveLength(1);
    const got = r.received[0];
    const event = await s.store.db.selectFrom("events").selectAll().executeTakeFirstOrThrow();
    expect(got.raw.toString("utf8")).toBe(event.payload);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-service-event"]).toBe("call.received");
    expect(got.headers["x-service-event-id"]).toBe(event.event_id);
    expect(got.headers["x-service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(got.t).toBe(clock.seconds());
    expect(got.verified).toEqual([true]);
    expect(got.body).toMatchObject({ id: event.event_id, type: "call.received", data: { external_call_id: "x-1" } });

    const d = await delivery();
    expect(d).toMatchObject({ status: "delivered", attempts: 1, response_status: 200, next_attempt_at: null, event_id: event.event_id });
    expect(await attempts(d.id)).toHaveLength(1);
  });

  it("the spec-written receiver rejects a tampered body, a stale timestamp and a wrong secret", async () => {
    const { specVerify } = await import("./receiver.js");
    const r = await receiver();
    const ep = await endpoint(r.url);
    await accept("x-2");
    await dispatcher().drain();
    const got = r.received[0];
    const sig = got.headers["x-service-signature"] as string;
    expect(specVerify(sig, ep.secret, got.raw, clock.seconds())).toBe(true);
    const tampered = Buffer.from(got.raw.toString("utf8").replace("x-2", "x-3"));
    expect(specVerify(sig, ep.secret, tampered, clock.seconds())).toBe(false);
    expect(specVerify(sig, ep.secret, got.raw, clock.seconds() + 301)).toBe(false);
    expect(specVerify(sig, ep.secret, got.raw, clock.seconds() - 301)).toBe(false);
    expect(specVerify(sig, ep.secret, got.raw, clock.seconds() + 300)).toBe(true);
    const wrong = ep.secret.slice(0, -1) + (ep.secret.endsWith("x") ? "y" : "x");
    expect(specVerify(sig, wrong, got.raw, clock.seconds())).toBe(false);
  });

  it("fans out to subscribed endpoints of the event's company only, once, and not to endpoints added later", async () => {
    const all = await receiver();
    const some = await receiver();
    const other = await receiver();
    await endpoint(all.url);
    await endpoint(some.url, companyId, ["call.failed"]);
    const otherCo = await createCompany(s.store.db, { name: "Other" });
    await endpoint(other.url, otherCo.id);
    await accept("a-1");
    await accept("b-1", otherCo.id);
    const d = dispatcher();
    await d.drain();
    await d.drain();
    expect(all.received.map((r) => r.body.data.external_call_id)).toEqual(["a-1"]);
    expect(some.received).toHaveLength(0);
    expect(other.received.map((r) => r.body.data.external_call_id)).toEqual(["b-1"]);

    const late = await receiver();
    await accept("a-2");
    await endpoint(late.url);
    await accept("a-3");
    await d.drain();
    expect(late.received.map((r) => r.body.data.external_call_id)).toEqual(["a-3"]);
    expect(all.received.map((r) => r.body.data.external_call_id)).toEqual(["a-1", "a-2", "a-3"]);
  });

  it("retries a 500 on the schedule (+30 s … 24 h), logs every attempt, then marks the delivery failed", async () => {
    const r = await receiver({ answer: () => ({ status: 500 }) });
    await endpoint(r.url);
    await accept("r-1");
    const d = dispatcher();
    await d.drain();
    const first = await delivery();
    expect(first).toMatchObject({ status: "retrying", attempts: 1, response_status: 500, last_error: "receiver answered HTTP 500" });
    expect(first.next_attempt_at).toBe(new Date(clock.ms + 30_000).toISOString());

    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      clock.advance(delay - 1);
      await d.drain();
      expect(r.received).toHaveLength(i + 1); // not due yet
      clock.advance(1);
      await d.drain();
      expect(r.received).toHaveLength(i + 2);
    }
    const last = await delivery();
    expect(last).toMatchObject({ status: "failed", attempts: 9, response_status: 500, next_attempt_at: null });
    const log = await attempts(last.id);
    expect(log.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(log.every((a) => a.response_status === 500 && a.trigger === "scheduled")).toBe(true);
    expect(log.at(-1)!.next_attempt_at).toBeNull();
    // Every retry was signed afresh with the time of that attempt, and always carries the same event id.
    expect(new Set(r.received.map((x) => x.t)).size).toBe(9);
    expect(new Set(r.received.map((x) => x.headers["x-service-event-id"])).size).toBe(1);
    clock.advance(365 * 86_400_000);
    await d.drain();
    expect(r.received).toHaveLength(9);
  });

  it("jitters each retry by at most ±10 %", async () => {
    const { retryDelayMs } = await import("../../src/events/retry-schedule.js");
    for (const [i, base] of RETRY_DELAYS_MS.entries()) {
      expect(retryDelayMs(i + 1, () => 0)).toBe(Math.round(base * 0.9));
      expect(retryDelayMs(i + 1, () => 1)).toBe(Math.round(base * 1.1));
      const any = retryDelayMs(i + 1)!;
      expect(any).toBeGreaterThanOrEqual(base * 0.9 - 1);
      expect(any).toBeLessThanOrEqual(base * 1.1 + 1);
    }
    expect(retryDelayMs(RETRY_DELAYS_MS.length + 1)).toBeNull();
  });

  it("counts a timeout and a refused connection as failed attempts and retries them", async () => {
    let release!: () => void;
    const hold = new Promise<void>((res) => (release = res));
    const slow = await receiver({ answer: () => ({ status: 200, wait: hold }) });
    await endpoint(slow.url);
    const refused = await closedPortUrl();
    await endpoint(refused);
    await accept("t-1");
    const d = dispatcher({ timeoutMs: 300 });
    await d.drain();
    release();
    const rows = await s.store.db.selectFrom("webhook_deliveries").selectAll().orderBy("endpoint_id").execute();
    expect(rows[0]).toMatchObject({ status: "retrying", attempts: 1, response_status: null, last_error: "timed out after 300 ms" });
    expect(rows[1]).toMatchObject({ status: "retrying", attempts: 1, response_status: null, last_error: "connection refused" });
    expect(rows[0].next_attempt_at).toBe(new Date(clock.ms + 30_000).toISOString());
    const log = await attempts(rows[0].id);
    expect(log[0]).toMatchObject({ response_status: null, error: "timed out after 300 ms" });
    expect(log[0].duration_ms).toBeGreaterThanOrEqual(250);
  });

  it("reports a DNS failure as a failed attempt", async () => {
    await endpoint("http://callreview-receiver.invalid/hook");
    await accept("dns-1");
    await dispatcher({ timeoutMs: 5_000 }).drain();
    const d = await delivery();
    expect(d.status).toBe("retrying");
    expect(d.response_status).toBeNull();
    expect(d.last_error).toMatch(/DNS lookup failed|timed out|network error/);
  });

  it("Retry-After on 429 and 503 lengthens the schedule but never shortens it", async () => {
    let n = 0;
    const r = await receiver({
      answer: () => {
        n += 1;
        if (n === 1) return { status: 429, headers: { "Retry-After": "7" } };
        if (n === 2) return { status: 503, headers: { "Retry-After": new Date(clock.ms + 90_000).toUTCString() } };
        if (n === 3) return { status: 429, headers: { "Retry-After": "3600" } };
        if (n === 4) return { status: 500, headers: { "Retry-After": "86400" } };
        return { status: 204 };
      },
    });
    await endpoint(r.url);
    await accept("ra-1");
    const d = dispatcher();
    await d.drain();
    // 7 s asked, 30 s scheduled: the schedule is the floor.
    expect((await delivery()).next_attempt_at).toBe(new Date(clock.ms + 30_000).toISOString());
    clock.advance(30_000);
    await d.drain();
    // 90 s asked (as an HTTP date), 2 min scheduled.
    expect((await delivery()).next_attempt_at).toBe(new Date(clock.ms + 120_000).toISOString());
    clock.advance(120_000);
    await d.drain();
    // 1 h asked, 10 min scheduled: the receiver gets the longer wait it asked for.
    expect((await delivery()).next_attempt_at).toBe(new Date(clock.ms + 3_600_000).toISOString());
    clock.advance(3_600_000);
    await d.drain();
    // Retry-After on a 500 is not a promise the receiver makes: the schedule (fourth gap, 1 h) applies.
    expect((await delivery()).next_attempt_at).toBe(new Date(clock.ms + 3_600_000).toISOString());
    clock.advance(3_600_000);
    await d.drain();
    const done = await delivery();
    expect(done).toMatchObject({ status: "delivered", attempts: 5, response_status: 204 });
    expect((await attempts(done.id)).map((a) => a.response_status)).toEqual([429, 503, 429, 500, 204]);
  });

  it("a receiver answering 429 with Retry-After: 5 every time does not spend the retry sequence early", async () => {
    const r = await receiver({ answer: () => ({ status: 429, headers: { "Retry-After": "5" } }) });
    await endpoint(r.url);
    await accept("ra-flood");
    const d = dispatcher();
    const started = clock.ms;
    for (let i = 0; i < 20; i++) {
      await d.drain();
      const next = (await delivery()).next_attempt_at;
      if (!next) break;
      clock.advance(Date.parse(next) - clock.ms);
    }
    const done = await delivery();
    expect(done).toMatchObject({ status: "failed", attempts: 9 });
    // The full schedule (30 s + 2 min + … + 24 h, jitter pinned to 0) passed before the last attempt.
    expect(clock.ms - started).toBe(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
  });

  it("a 410 fails the delivery at once and disables the endpoint; others of the endpoint wait", async () => {
    const r = await receiver({ answer: () => ({ status: 410 }) });
    const ep = await endpoint(r.url);
    await accept("g-1");
    await accept("g-2");
    const d = dispatcher({ perEndpoint: 1 });
    await d.pass();
    await d.idle();
    await d.drain();
    await accept("g-3"); // a disabled endpoint gets no new deliveries
    clock.advance(86_400_000);
    await d.drain();
    expect(r.received).toHaveLength(1);
    const rows = await s.store.db.selectFrom("webhook_deliveries").selectAll().orderBy("id").execute();
    expect(rows.map((x) => x.status)).toEqual(["failed", "pending"]);
    expect(rows[0]).toMatchObject({ attempts: 1, response_status: 410, next_attempt_at: null });
    const row = await s.store.db.selectFrom("webhook_endpoints").selectAll().where("id", "=", ep.id).executeTakeFirstOrThrow();
    expect(row.enabled).toBe(0);
    expect(row.disabled_reason).toMatch(/410/);
  });

  it("resumes a retry sequence after a restart on the same data dir", async () => {
    let fail = true;
    const r = await receiver({ answer: () => ({ status: fail ? 502 : 200 }) });
    await endpoint(r.url);
    await accept("restart-1");
    let d = dispatcher();
    await d.drain();
    clock.advance(30_000);
    await d.drain();
    expect(r.received).toHaveLength(2);
    const before = await delivery();
    expect(before).toMatchObject({ status: "retrying", attempts: 2, retry_index: 2 });
    await d.stop();
    await s.close();

    s = {
      ...(await createServices(testConfig(s.dir, { databaseUrl: s.config.databaseUrl }), { logger: silentLogger, clock })),
      dir: s.dir,
      dispose: s.dispose,
    } as S;
    const dispose = s.dispose;
    s.dispose = async () => {
      await s.close();
      await dispose();
    };
    d = dispatcher({}, s.store.db);
    fail = false;
    clock.advance(119_000);
    await d.drain();
    expect(r.received).toHaveLength(2); // the 2-minute gap is not over yet
    clock.advance(1_000);
    await d.drain();
    expect(r.received).toHaveLength(3);
    const after = await delivery();
    expect(after).toMatchObject({ id: before.id, status: "delivered", attempts: 3, response_status: 200 });
    expect((await attempts(after.id)).map((a) => a.response_status)).toEqual([502, 502, 200]);
    expect(new Set(r.received.map((x) => x.headers["x-service-event-id"])).size).toBe(1);
  });

  it("two dispatchers on one data dir fan out and send each event exactly once", async () => {
    const r = await receiver();
    const r2 = await receiver();
    await endpoint(r.url);
    await endpoint(r2.url);
    const second = await createServices(testConfig(s.dir, { databaseUrl: s.config.databaseUrl }), { logger: silentLogger, clock });
    try {
      const a = dispatcher({ concurrency: 4, perEndpoint: 2, fanOutBatch: 7 });
      const b = dispatcher({ concurrency: 4, perEndpoint: 2, fanOutBatch: 7 }, second.store.db);
      const accepting = (async () => {
        for (let i = 0; i < 60; i++) await accept(`c-${i}`);
      })();
      const run = async (d: Dispatcher) => {
        for (let i = 0; i < 40; i++) {
          await d.pass();
          await new Promise((res) => setTimeout(res, 5));
        }
        await d.drain();
      };
      await Promise.all([accepting, run(a), run(b)]);
      await a.drain();
      await b.drain();
      for (const rec of [r, r2]) {
        const ids = rec.received.map((x) => x.headers["x-service-event-id"]);
        expect(ids).toHaveLength(60);
        expect(new Set(ids).size).toBe(60);
      }
      const attemptsCount = await s.store.db
        .selectFrom("webhook_attempts")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(attemptsCount.n)).toBe(120);
    } finally {
      await second.close();
    }
  });

  it("a hanging endpoint does not hold back another endpoint's deliveries", async () => {
    let release!: () => void;
    const hold = new Promise<void>((res) => (release = res));
    const hanging = await receiver({ answer: () => ({ status: 200, wait: hold }) });
    const fast = await receiver();
    await endpoint(hanging.url);
    await endpoint(fast.url);
    for (let i = 0; i < 30; i++) await accept(`h-${i}`);
    const d = dispatcher({ concurrency: 6, perEndpoint: 2, timeoutMs: 30_000 });
    d.start();
    // The fast receiver gets all 30 while the hanging one has never answered anything.
    await fast.waitFor(30);
    expect(hanging.received.length).toBeLessThanOrEqual(2);
    const hangingDone = await s.store.db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", 1).where("status", "=", "delivered").execute();
    expect(hangingDone).toHaveLength(0);
    release();
    await hanging.waitFor(30);
    await d.stop();
  });

  it("takes over a delivery whose holder died once its lease runs out; the lost send still counts", async () => {
    const r = await receiver();
    await endpoint(r.url);
    await accept("lease-1");
    const d = dispatcher({ leaseMs: 60_000 });
    await d.pass(); // fan-out only matters here; the attempt below is stolen first
    await d.idle();
    expect(r.received).toHaveLength(1);
    // A second event claimed by a process that then crashed (it may have sent, it never recorded a result).
    await accept("lease-2");
    const { fanOutBatch } = await import("../../src/events/fan-out.js");
    await fanOutBatch(s.store.db, clock.now());
    const stolen = await claimDueDeliveries(s.store.db, 1, clock.now().toISOString(), new Date(clock.ms + 60_000).toISOString(), "dead-process", 10);
    expect(stolen).toHaveLength(1);
    // Written down before anything is sent: the attempt shows while it is in flight.
    expect(await delivery(stolen[0].id)).toMatchObject({ attempts: 1 });
    expect(await attempts(stolen[0].id)).toMatchObject([{ attempt: 1, in_flight: 1 }]);
    await d.drain();
    expect(r.received).toHaveLength(1);
    clock.advance(60_000);
    await d.drain();
    expect(r.received.map((x) => x.body.data.external_call_id)).toEqual(["lease-1", "lease-2"]);
    expect(await delivery(stolen[0].id)).toMatchObject({ status: "delivered", attempts: 2, retry_index: 1, lease_token: null });
    expect(await attempts(stolen[0].id)).toMatchObject([
      { attempt: 1, in_flight: 0, response_status: null, error: LOST_ATTEMPT_ERROR },
      { attempt: 2, in_flight: 0, response_status: 200, error: null, trigger: "scheduled" },
    ]);
  });

  it("a delivery whose last attempt of the sequence was lost ends failed without a tenth send", async () => {
    const r = await receiver({ answer: () => ({ status: 500 }) });
    await endpoint(r.url);
    await accept("lost-last");
    const d = dispatcher({ leaseMs: 60_000 });
    for (let i = 0; i < 8; i++) {
      await d.drain();
      clock.advance(Date.parse((await delivery()).next_attempt_at!) - clock.ms);
    }
    expect(await delivery()).toMatchObject({ status: "retrying", attempts: 8 });
    // The ninth attempt is claimed by a process that dies.
    await claimDueDeliveries(s.store.db, 1, clock.now().toISOString(), new Date(clock.ms + 60_000).toISOString(), "dead-process", 10);
    clock.advance(60_000);
    await d.drain();
    expect(r.received).toHaveLength(8);
    const done = await delivery();
    expect(done).toMatchObject({ status: "failed", attempts: 9, next_attempt_at: null, lease_token: null });
    expect((await attempts(done.id)).map((a) => a.error)).toEqual([...Array(8).fill("receiver answered HTTP 500"), LOST_ATTEMPT_ERROR]);
  });

  it("stop() waits for attempts in flight and records them", async () => {
    let release!: () => void;
    const hold = new Promise<void>((res) => (release = res));
    const r = await receiver({ answer: () => ({ status: 200, wait: hold }) });
    await endpoint(r.url);
    await accept("stop-1");
    const d = dispatcher();
    d.start();
    await r.waitFor(1);
    let stopped = false;
    const stopping = d.stop().then(() => (stopped = true));
    await new Promise((res) => setTimeout(res, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await delivery()).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("never writes a signing secret or the endpoint URL to the log", async () => {
    const lines: string[] = [];
    const logger = createLogger("debug", (l) => lines.push(l));
    let n = 0;
    const r = await receiver({ answer: () => ({ status: ++n === 1 ? 500 : 410 }) });
    const ep = await endpoint(r.url);
    await accept("log-1");
    const d = new Dispatcher(s.store.db, clock, logger, { timeoutMs: 2_000, random: () => 0.5 });
    dispatchers.push(d);
    await d.drain();
    clock.advance(30_000);
    await d.drain();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const all = lines.join("\n");
    expect(all).toMatch(/410/);
    expect(all).not.toContain(ep.secret);
    expect(all).not.toContain(r.url);
  });

  it("a receiver that is down for a whole day still gets every event (real jitter)", async () => {
    const upAt = clock.ms + 24 * 3_600_000;
    const r = await receiver({ answer: () => ({ status: clock.ms < upAt ? 503 : 200 }) });
    await endpoint(r.url);
    const d = new Dispatcher(s.store.db, clock, silentLogger, { timeoutMs: 2_000 }); // Math.random jitter
    dispatchers.push(d);
    const hours = [0, 1, 6, 12, 23.99];
    let t = 0;
    for (const h of hours) {
      clock.advance((h - t) * 3_600_000);
      t = h;
      await accept(`down-${h}`);
      await d.drain();
    }
    // Walk the clock minute by minute for three days; the dispatcher sends whatever is due.
    for (let i = 0; i < 3 * 24 * 60; i++) {
      clock.advance(60_000);
      await d.drain();
    }
    const rows = await s.store.db.selectFrom("webhook_deliveries").selectAll().orderBy("id").execute();
    expect(rows.map((x) => x.status)).toEqual(hours.map(() => "delivered"));
    const okIds = r.received.filter((x) => x.t * 1000 >= upAt).map((x) => x.body.data.external_call_id);
    expect(okIds.sort()).toEqual(hours.map((h) => `down-${h}`).sort());
    expect(Math.max(...rows.map((x) => x.attempts))).toBeLessThanOrEqual(9);
  });
});
