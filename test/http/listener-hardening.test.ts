import { defaultAudioDir } from "../../src/config.js";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";

import { createApp } from "../../src/http/app.js";
import { silentLogger } from "../../src/logger.js";
import { listen } from "../../src/server.js";
import { startService, type RunningService } from "../../src/serve.js";
import { createCompany } from "../../src/store/companies.js";
import { tempDir, testConfig, testServices } from "../helpers/services.js";
import { rawExchange } from "../helpers/raw-http.js";
import { until } from "../helpers/wait.js";

function parseRaw(answer: string): { status: number; headers: string; body: unknown } {
  const [head, body] = answer.split("\r\n\r\n", 2);
  return { status: Number(head.split(" ")[1]), headers: head.toLowerCase(), body: body ? JSON.parse(body) : undefined };
}

/** Sends the start of a request, then drops the connection without finishing the body. */
function abortMidBody(port: number, head: string, partial: string): Promise<void> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.on("error", () => undefined);
    s.write(head + partial, () => setTimeout(() => s.destroy(), 20));
    s.on("close", () => resolve());
  });
}

/** A pid that surely belongs to no process: one we started and reaped. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

const audioTempDir = (dataDir: string) => path.join(defaultAudioDir(dataDir), "tmp");

describe("Node listener: refusals, interrupted bodies, temp files, shutdown", () => {
  let dir: string;
  let cleanup: () => void;
  let running: RunningService;
  let key: string;
  let port: number;
  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    running = await startService(testConfig(dir, { port: 0, workers: 0 }), { logger: silentLogger });
    const company = await createCompany(running.services.store.db, { name: "Acme" });
    key = (await createApiKey(running.services.store.db, { companyId: company.id })).key;
    port = running.listener.port;
  });
  afterEach(async () => {
    await running.stop();
    cleanup();
  });

  it("two Content-Length headers are 400 bad_request in the JSON error shape, and no call is made", async () => {
    const body = '{"external_call_id":"smuggle"}';
    for (const second of [String(body.length), "5"]) {
      const answer = parseRaw(
        await rawExchange(
          port,
          `POST /v1/calls HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nContent-Length: ${second}\r\n\r\n${body}`,
        ),
      );
      expect(answer.status).toBe(400);
      expect(answer.headers).toContain("content-type: application/json");
      expect(answer.body).toEqual({ error: "bad_request", message: expect.any(String) });
    }
    expect(await running.services.store.db.selectFrom("calls").select("id").execute()).toEqual([]);
  });

  it("an unknown method is 405 method_not_allowed in the JSON error shape", async () => {
    const answer = parseRaw(await rawExchange(port, "FOO /v1/calls HTTP/1.1\r\nHost: x\r\n\r\n"));
    expect(answer.status).toBe(405);
    expect(answer.headers).toContain("allow: get, head, post");
    expect(answer.body).toEqual({ error: "method_not_allowed", message: expect.any(String) });
  });

  it("oversized headers are 431 headers_too_large in the JSON error shape", async () => {
    const answer = parseRaw(await rawExchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ error: "headers_too_large", message: expect.any(String) });
  });

  it("a malformed request line or header is 400 bad_request in the JSON error shape", async () => {
    const answer = parseRaw(await rawExchange(port, "GET /healthz HTTP/1.1\r\nHost x\r\n\r\n"));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: "bad_request", message: expect.any(String) });
  });

  it("uploads aborted mid-file leave no temp file and no call", async () => {
    const head = `POST /v1/uploads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 5000000\r\n\r\n`;
    const part = `--B\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF\x24\x00\x00\x00WAVEfmt ${"x".repeat(200_000)}`;
    await Promise.all(Array.from({ length: 30 }, () => abortMidBody(port, head, part)));
    const tmp = audioTempDir(dir);
    await until(() => !fs.existsSync(tmp) || fs.readdirSync(tmp).length === 0, "temp files removed");
    expect(await running.services.store.db.selectFrom("calls").select("id").execute()).toEqual([]);
  });
});

describe("start-up sweep of upload temp files", () => {
  it("removes files of dead writers, of this pid and of unknown names; keeps a live writer's", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const tmp = audioTempDir(dir);
      fs.mkdirSync(tmp, { recursive: true });
      const dead = `${deadPid()}-1700000000000-00aa.part`;
      const own = `${process.pid}-1700000000000-00bb.part`;
      const legacy = "1700000000000-00cc.part";
      const live = `${process.ppid}-1700000000000-00dd.part`;
      for (const f of [dead, own, legacy, live]) fs.writeFileSync(path.join(tmp, f), "partial");
      const running = await startService(testConfig(dir, { port: 0, workers: 0 }), { logger: silentLogger });
      await running.stop();
      expect(fs.readdirSync(tmp)).toEqual([live]);
    } finally {
      cleanup();
    }
  });
});

describe("Node listener shutdown", () => {
  it.each([
    ["an upload", "multipart/form-data; boundary=B", '--B\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF'],
    ["a JSON body", "application/json", '{"rep_name":"x'],
  ])(
    "close() completes while a client holds %s half-sent, and no temp file is left",
    async (_what, type, partial) => {
      const s = await testServices({ port: 0 });
      const company = await createCompany(s.store.db, { name: "Acme" });
      const key = (await createApiKey(s.store.db, { companyId: company.id })).key;
      const listener = await listen(createApp(s).fetch, { host: "127.0.0.1", port: 0, shutdownGraceMs: 300 });
      const sock = net.connect(listener.port, "127.0.0.1");
      sock.on("error", () => undefined);
      // Read whatever comes (an early refusal), so the close is seen.
      sock.resume();
      const closed = new Promise<void>((r) => sock.on("close", () => r()));
      sock.write(
        `POST ${type.startsWith("multipart") ? "/v1/uploads" : "/v1/calls"} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${type}\r\nContent-Length: 100000\r\n\r\n${partial}`,
      );
      // The client keeps the connection open and sends nothing more.
      await new Promise((r) => setTimeout(r, 200));
      await listener.close();
      await closed;
      const tmp = audioTempDir(s.dir);
      await until(() => !fs.existsSync(tmp) || fs.readdirSync(tmp).length === 0, "temp files removed");
      await s.dispose();
    },
    20_000,
  );
});
