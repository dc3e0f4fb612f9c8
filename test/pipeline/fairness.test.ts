import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { silentLogger } from "../../src/logger.js";
import { startService, type RunningService } from "../../src/serve.js";
import { createCompany } from "../../src/store/companies.js";
import { startAudioServer, type AudioServer } from "../helpers/audio-server.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir, testConfig } from "../helpers/services.js";

/** A server that accepts connections and never answers: a recording URL that stalls. */
async function startStalledServer() {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function until(what: string, fn: () => Promise<boolean> | boolean, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One tenant's stalled recording URLs must not hold up another tenant: with
 * the default workers, download slots and per-company cap, company B's calls
 * (one uploaded-style without audio, one with a working recording URL)
 * complete while company A's downloads are all still hanging.
 */
describe("fairness between companies", () => {
  let dir: string;
  let cleanup: () => void;
  let stalled: Awaited<ReturnType<typeof startStalledServer>>;
  let audio: AudioServer;
  let running: RunningService;

  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    stalled = await startStalledServer();
    audio = await startAudioServer(fixture("jfk.wav"));
    // Defaults for workers, download slots and the company cap; timeouts so long that nothing of A ends during the test.
    running = await startService(testConfig(dir, { port: 0, downloadConnectTimeoutMs: 600_000, downloadIdleTimeoutMs: 600_000, downloadTimeoutMs: 600_000 }), {
      logger: silentLogger,
    });
  });
  afterEach(async () => {
    await running.stop();
    await stalled.close();
    await audio.close();
    cleanup();
  });

  async function companyKey(name: string): Promise<string> {
    const db = running.services.store.db;
    const company = await createCompany(db, { name });
    return (await createApiKey(db, { companyId: company.id })).key;
  }

  async function submit(key: string, body: Record<string, unknown>): Promise<number> {
    const res = await fetch(`${running.url}/v1/calls`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    return (await res.json()).call_id;
  }

  async function status(key: string, id: number): Promise<string> {
    const res = await fetch(`${running.url}/v1/calls/${id}`, { headers: { authorization: `Bearer ${key}` } });
    return (await res.json()).processing_status;
  }

  it("company B's calls complete while company A's recording URLs stall", async () => {
    const cfg = running.services.config;
    expect(cfg.workers).toBe(2);
    const keyA = await companyKey("A");
    const keyB = await companyKey("B");
    const a: number[] = [];
    for (let i = 0; i < 5; i++) a.push(await submit(keyA, { external_call_id: `a-${i}`, recording_url: `${stalled.url}/rec-${i}.wav` }));
    // A's downloads are under way, as many as its cap allows.
    await until("A's downloads start", () => stalled.open() === cfg.companyMaxInflight);

    const b1 = await submit(keyB, { external_call_id: "b-1" });
    const b2 = await submit(keyB, { external_call_id: "b-2", recording_url: `${audio.url}/audio/b2.wav` });
    await until("B's calls complete", async () => (await status(keyB, b1)) === "complete" && (await status(keyB, b2)) === "complete");

    // B finished while every one of A's downloads was still hanging: none ended, none was retried, none finished.
    expect(stalled.accepted()).toBe(cfg.companyMaxInflight);
    expect(stalled.open()).toBe(cfg.companyMaxInflight);
    const statusesA = await Promise.all(a.map((id) => status(keyA, id)));
    expect(statusesA.filter((s) => s === "transcribing")).toHaveLength(cfg.companyMaxInflight);
    expect(statusesA.filter((s) => s === "queued")).toHaveLength(a.length - cfg.companyMaxInflight);
    const jobsA = await running.services.store.db.selectFrom("jobs").select(["status", "stage", "attempts"]).where("call_id", "in", a).execute();
    expect(jobsA.filter((j) => j.status === "running").map((j) => [j.stage, j.attempts])).toEqual(Array(cfg.companyMaxInflight).fill(["download", 1]));
  });

  it("stopping the workers abandons stalled downloads at once and hands their jobs back uncharged", async () => {
    const cfg = running.services.config;
    const keyA = await companyKey("A");
    const a: number[] = [];
    for (let i = 0; i < 3; i++) a.push(await submit(keyA, { external_call_id: `a-${i}`, recording_url: `${stalled.url}/rec-${i}.wav` }));
    await until("A's downloads start", () => stalled.open() === cfg.companyMaxInflight);

    // A grace far beyond the test's own timeout: stop() must not wait for the hanging downloads.
    await running.workers.stop(3_600_000);
    const jobs = await running.services.store.db.selectFrom("jobs").select(["status", "attempts", "locked_by"]).where("call_id", "in", a).execute();
    expect(jobs).toEqual(a.map(() => ({ status: "queued", attempts: 0, locked_by: null })));
  });
});
