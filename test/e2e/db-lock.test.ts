import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { silentLogger } from "../../src/logger.js";
import { startService } from "../../src/serve.js";
import { createServices } from "../../src/services.js";
import { createCompany } from "../../src/store/companies.js";
import { databasePath } from "../../src/config.js";
import { startServeBinary } from "../helpers/binary.js";
import { holdWriteLock, type LockHolder } from "../helpers/lock-holder.js";
import { tempDir, testConfig } from "../helpers/services.js";

interface Server {
  url: string;
  stop(): Promise<unknown>;
}

type Start = (dir: string, busyTimeoutMs: number) => Promise<Server>;

const inProcess: Start = async (dir, busyTimeoutMs) => {
  const running = await startService(testConfig(dir, { port: 0, workers: 1, dbBusyTimeoutMs: busyTimeoutMs }), { logger: silentLogger });
  return { url: running.url, stop: () => running.stop() };
};

const executable: Start = (dir, busyTimeoutMs) =>
  startServeBinary(["--data-dir", dir, "--pipeline", "placeholder", "--workers", "1", "--db-busy-timeout-ms", String(busyTimeoutMs), "--log-level", "info"]);

/**
 * Another process holds the database's write lock (BEGIN IMMEDIATE). The
 * server must keep answering /healthz and reads while a write waits for the
 * lock, and a write that cannot get it in time answers 503 database_busy with
 * Retry-After — never a frozen event loop.
 */
describe.each([
  ["in-process server (better-sqlite3)", inProcess],
  ["the executable (bun:sqlite)", executable],
])("a database locked by another process: %s", (_name, start) => {
  let dir: string;
  let cleanup: () => void;
  let key: string;
  let server: Server | undefined;
  let lock: LockHolder | undefined;

  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    const s = await createServices(testConfig(dir), { logger: silentLogger });
    const company = await createCompany(s.store.db, { name: "Acme" });
    key = (await createApiKey(s.store.db, { companyId: company.id })).key;
    await s.close();
  });
  afterEach(async () => {
    await lock?.release();
    await server?.stop();
    lock = server = undefined;
    cleanup();
  });

  const auth = () => ({ authorization: `Bearer ${key}` });
  const post = (externalId: string) =>
    fetch(`${server!.url}/v1/calls`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ external_call_id: externalId }),
    });

  it("health and reads answer while a write waits for the lock; the write then succeeds", async () => {
    server = await start(dir, 120_000);
    // The key's first use writes its last-use stamp: done before the lock, so reads below are pure reads.
    expect((await fetch(`${server.url}/v1/calls`, { headers: auth() })).status).toBe(200);
    lock = await holdWriteLock(databasePath({ dataDir: dir }));

    let settled = false;
    const pending = post("during-lock").then((r) => {
      settled = true;
      return r;
    });
    for (let i = 0; i < 5; i++) {
      const h = await fetch(`${server.url}/healthz`);
      expect(h.status).toBe(200);
    }
    const list = await fetch(`${server.url}/v1/calls`, { headers: auth() });
    expect(list.status).toBe(200);
    expect((await list.json()).data).toEqual([]);
    // Every read above was answered while the write was still waiting for the other process.
    expect(settled).toBe(false);

    await lock.release();
    const res = await pending;
    expect(res.status).toBe(201);
    const after = await (await fetch(`${server.url}/v1/calls`, { headers: auth() })).json();
    expect(after.data.map((c: { external_call_id: string }) => c.external_call_id)).toEqual(["during-lock"]);
  });

  it("a write that cannot get the lock in time answers 503 database_busy with Retry-After and leaves nothing behind", async () => {
    server = await start(dir, 200);
    expect((await fetch(`${server.url}/v1/calls`, { headers: auth() })).status).toBe(200);
    lock = await holdWriteLock(databasePath({ dataDir: dir }));

    const refused = await post("refused");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    const body = await refused.json();
    expect(body).toMatchObject({ error: "database_busy" });
    expect(body.message).toMatch(/locked by another process/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    await lock.release();
    expect((await post("accepted")).status).toBe(201);
    const after = await (await fetch(`${server.url}/v1/calls`, { headers: auth() })).json();
    expect(after.data.map((c: { external_call_id: string }) => c.external_call_id)).toEqual(["accepted"]);
  });
});
