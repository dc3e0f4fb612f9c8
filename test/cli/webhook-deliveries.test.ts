import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Dispatcher } from "../../src/events/dispatcher.js";
import { EVENT_TYPES } from "../../src/events/types.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { silentLogger } from "../../src/logger.js";
import { createServices, type Services } from "../../src/services.js";
import { systemClock } from "../../src/time.js";
import { startReceiver, type Receiver } from "../events/receiver.js";
import { cli, json } from "../helpers/cli.js";
import { tempDir, testConfig } from "../helpers/services.js";

describe("webhook and deliveries commands (in process)", () => {
  let dir: string;
  let cleanup: () => void;
  let r: Receiver;
  const run = (...args: string[]) => cli(["--data-dir", dir, ...args]);

  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    r = await startReceiver();
    await run("company", "create", "Acme");
    await run("company", "create", "Other");
  });
  afterEach(async () => {
    await r.close();
    cleanup();
  });

  /** Opens the data dir like a running server would, to make events and deliver them. */
  async function withServer<T>(fn: (s: Services, d: Dispatcher) => Promise<T>): Promise<T> {
    const s = await createServices(testConfig(dir), { logger: silentLogger });
    const d = new Dispatcher(s.store.db, systemClock, silentLogger, { timeoutMs: 2_000 });
    try {
      return await fn(s, d);
    } finally {
      await d.stop();
      await s.close();
    }
  }

  it("add prints the secret once; list never shows it; rotate-secret prints a new one", async () => {
    const plain = await run("webhook", "add", "--company", "1", "--url", r.url);
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim()).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(plain.stderr).toMatch(/not shown again/);

    const added = await run(
      "webhook",
      "add",
      "--company",
      "2",
      "--url",
      "https://hooks.example.com/in?x=1",
      "--events",
      "call.failed,call.report_completed",
      "--json",
    );
    expect(added.code).toBe(0);
    const ep = json(added.stdout);
    expect(ep).toMatchObject({ id: 2, company_id: 2, url: "https://hooks.example.com/in?x=1", enabled: true, previous_secret_expires_at: null });
    expect(ep.events).toEqual(["call.report_completed", "call.failed"]);
    expect(ep.secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);

    const list = await run("webhook", "list", "--json");
    const listed = json(list.stdout);
    expect(listed.map((e: { id: number }) => e.id)).toEqual([1, 2]);
    expect(listed[0].events).toEqual([...EVENT_TYPES]);
    expect(list.stdout).not.toContain("whsec_");
    for (const e of listed) expect(e).not.toHaveProperty("secret");
    expect(json((await run("webhook", "list", "--company", "2", "--json")).stdout).map((e: { id: number }) => e.id)).toEqual([2]);
    expect((await run("webhook", "list")).stdout).not.toContain("whsec_");

    const rotated = json((await run("webhook", "rotate-secret", "2", "--json")).stdout);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(ep.secret);
    const relisted = await run("webhook", "list", "--company", "2", "--json");
    expect(relisted.stdout).not.toContain("whsec_");
    expect(json(relisted.stdout)[0].previous_secret_expires_at).toBe(rotated.previous_secret_expires_at);

    const removed = await run("webhook", "remove", "1", "--yes", "--json");
    expect(json(removed.stdout)).toMatchObject({ id: 1, removed: true });
    expect(json((await run("webhook", "list", "--json")).stdout).map((e: { id: number }) => e.id)).toEqual([2]);
  });

  it("test sends a signed sample and prints the receiver's status", async () => {
    const secret = (await run("webhook", "add", "--company", "1", "--url", r.url)).stdout.trim();
    r.secrets = [secret];
    const ok = await run("webhook", "test", "1");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/Receiver answered HTTP 200/);
    expect(r.received).toHaveLength(1);
    expect(r.received[0].verified).toEqual([true]);
    expect(r.received[0].body).toMatchObject({ type: "call.received", data: { test: true } });
    expect(r.received[0].headers["x-service-event-id"]).toMatch(/^evt_test_/);

    r.answer = () => ({ status: 503 });
    const bad = await run("webhook", "test", "1", "--json");
    expect(bad.code).toBe(1);
    expect(json(bad.stdout)).toMatchObject({ ok: false, response_status: 503 });
    expect(bad.stderr).toMatch(/test delivery to endpoint 1 failed: receiver answered HTTP 503/);
  });

  it.each([
    [["webhook", "add", "--company", "42", "--url", "http://127.0.0.1:9/x"], /company 42 not found/],
    [["webhook", "add", "--company", "1", "--url", "ftp://example.com/x"], /invalid webhook URL "ftp:\/\/example.com\/x"/],
    [["webhook", "add", "--company", "1", "--url", "not a url"], /invalid webhook URL "not a url"/],
    [["webhook", "add", "--company", "1", "--url", "http://x.example/", "--events", "call.received,call.exploded"], /unknown event "call.exploded"/],
    [["webhook", "add", "--company", "abc", "--url", "http://x.example/"], /invalid --company "abc"/],
    [["webhook", "list", "--company", "9"], /company 9 not found/],
    [["webhook", "remove", "7", "--yes"], /webhook endpoint 7 not found/],
    [["webhook", "rotate-secret", "7"], /webhook endpoint 7 not found/],
    [["webhook", "test", "7"], /webhook endpoint 7 not found/],
    [["deliveries", "list", "--status", "done"], /argument 'done' is invalid\. Allowed choices are pending, delivered, retrying, failed/],
    [["deliveries", "list", "--company", "9"], /company 9 not found/],
    [["deliveries", "replay", "5"], /delivery 5 not found/],
    [["deliveries", "replay"], /give a delivery id/],
    [["deliveries", "replay", "--failed"], /--failed needs --since/],
    [["deliveries", "replay", "--failed", "--since", "yesterday"], /invalid --since "yesterday"/],
    [["deliveries", "show", "5"], /delivery 5 not found/],
  ] as const)("fails with one clear stderr line: %j", async (args, message) => {
    const res = await run(...args);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe("");
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
    expect(res.stderr).toMatch(message);
    expect(json((await run("webhook", "list", "--json")).stdout)).toEqual([]);
  });

  it("lists deliveries per company, shows attempts, and replays through the running dispatcher", async () => {
    await run("webhook", "add", "--company", "1", "--url", r.url);
    await run("webhook", "add", "--company", "2", "--url", r.url);
    r.answer = (x) => ({ status: x.body.data.external_call_id === "a-2" ? 500 : 200 });
    await withServer(async (s, d) => {
      await acceptCall(s.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "a-1" } });
      await acceptCall(s.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "a-2" } });
      await acceptCall(s.store.db, { companyId: 2, intake: "api", fields: { external_call_id: "b-1" } });
      await d.drain();
    });

    const a = json((await run("deliveries", "list", "--company", "1", "--json")).stdout);
    expect(a.map((x: { id: number; company_id: number }) => [x.id, x.company_id])).toEqual([
      [2, 1],
      [1, 1],
    ]);
    expect(a[0]).toMatchObject({
      status: "retrying",
      attempts: 1,
      response_status: 500,
      last_error: "receiver answered HTTP 500",
      endpoint_id: 1,
      event_type: "call.received",
    });
    expect(a[0].next_attempt_at).toMatch(/Z$/);
    const b = await run("deliveries", "list", "--company", "2", "--json");
    expect(json(b.stdout).map((x: { id: number }) => x.id)).toEqual([3]);
    expect(json((await run("deliveries", "list", "--status", "retrying", "--json")).stdout).map((x: { id: number }) => x.id)).toEqual([2]);
    // Piped: a header line, then one tab-separated line per delivery.
    expect((await run("deliveries", "list")).stdout.trim().split("\n")).toHaveLength(4);

    const shown = json((await run("deliveries", "show", "2", "--json")).stdout);
    expect(shown.attempts).toHaveLength(1);
    expect(shown.attempts[0]).toMatchObject({ attempt: 1, trigger: "scheduled", response_status: 500, error: "receiver answered HTTP 500" });
    expect((await run("deliveries", "show", "2")).stdout).toMatch(/#1 scheduled.*HTTP 500/);

    // The CLI only marks the delivery due; the server's dispatcher sends it (not before its next pass).
    r.answer = () => ({ status: 200 });
    const replay = await run("deliveries", "replay", "1", "--json");
    expect(replay.code).toBe(0);
    expect(json(replay.stdout)).toMatchObject({ id: 1, status: "pending" });
    expect(r.received).toHaveLength(3);
    await new Promise((res) => setTimeout(res, 1_100)); // a new second, so the replay's t differs
    await withServer((_s, d) => d.drain());
    const firstA1 = r.received.find((x) => x.body.data.external_call_id === "a-1")!;
    const replayed = r.received.at(-1)!;
    expect(replayed.headers["x-service-event-id"]).toBe(firstA1.headers["x-service-event-id"]);
    expect(replayed.t).toBeGreaterThan(firstA1.t);
    expect(json((await run("deliveries", "show", "1", "--json")).stdout).attempts.map((x: { trigger: string }) => x.trigger)).toEqual(["scheduled", "replay"]);

    const recover = await run("deliveries", "replay", "--failed", "--since", "1h", "--json");
    expect(json(recover.stdout)).toEqual({ replayed: [], skipped: [] });
  });

  it("disable pauses an endpoint, replay says so, enable resumes it", async () => {
    await run("webhook", "add", "--company", "1", "--url", r.url);
    await withServer(async (s, d) => {
      await acceptCall(s.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "p-1" } });
      await d.drain();
    });
    expect(json((await run("webhook", "disable", "1", "--json")).stdout)).toMatchObject({ id: 1, enabled: false, disabled_reason: "disabled by an admin" });
    const replay = await run("deliveries", "replay", "1");
    expect(replay.code).toBe(0);
    expect(replay.stderr).toMatch(/endpoint 1 is disabled .* webhook enable 1/);
    await withServer((_s, d) => d.drain());
    expect(r.received).toHaveLength(1);
    expect(json((await run("webhook", "enable", "1", "--json")).stdout)).toMatchObject({ enabled: true, disabled_reason: null });
    await withServer((_s, d) => d.drain());
    expect(r.received).toHaveLength(2);
    expect(json((await run("deliveries", "list", "--json")).stdout)[0]).toMatchObject({ status: "delivered", attempts: 2 });
  });
});
