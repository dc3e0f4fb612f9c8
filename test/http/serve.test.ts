import http from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../../src/serve.js";
import { silentLogger } from "../../src/logger.js";
import { tempDir, testConfig } from "../helpers/services.js";

describe("serve: listener, health, unknown routes, shutdown", () => {
  let dir: string;
  let cleanup: () => void;
  let running: RunningService;
  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    running = await startService(testConfig(dir, { port: 0, workers: 0 }), { logger: silentLogger });
  });
  afterEach(async () => {
    await running.stop();
    cleanup();
  });

  it("answers /healthz with status, version and pipeline over a real socket", async () => {
    const res = await fetch(`${running.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = await res.json();
    expect(body).toMatchObject({ status: "ok", pipeline: "placeholder" });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each(["/nope", "/v1/nope", "/api/v1/nope", "/v2/calls"])("answers JSON 404 not_found for %s", async (p) => {
    const res = await fetch(`${running.url}${p}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found", message: expect.any(String) });
  });

  it("stops accepting on stop() and closes the database", async () => {
    // Keep a connection alive across the stop to prove idle keep-alive sockets do not hold it open.
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve) => http.get(`${running.url}/healthz`, { agent }, (res) => res.resume().on("end", () => resolve())));
    await running.stop();
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
    await expect(running.services.store.db.selectFrom("companies").selectAll().execute()).rejects.toThrow();
    agent.destroy();
  });
});
