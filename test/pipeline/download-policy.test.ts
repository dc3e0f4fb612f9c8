import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { isAppError } from "../../src/errors.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { downloadRecording, type DownloadOptions } from "../../src/pipeline/download.js";
import { DownloadPolicy, parseRuleList } from "../../src/pipeline/download-policy.js";
import { StageError } from "../../src/pipeline/ports.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { createCompany } from "../../src/store/companies.js";
import { VERSION } from "../../src/version.js";
import { startAudioServer, type AudioServer } from "../helpers/audio-server.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir, testServices } from "../helpers/services.js";

describe("download policy", () => {
  let server: AudioServer;
  let port: number;
  let dir: string;
  let cleanup: () => void;
  let opts: DownloadOptions;
  beforeAll(async () => {
    server = await startAudioServer(fixture("jfk.wav"));
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    opts = { audioRoot: path.join(dir, "audio"), maxBytes: 4 * 1024 * 1024, connectTimeoutMs: 2000, totalTimeoutMs: 5000 };
  });
  afterEach(() => cleanup());

  async function blocked(url: string, policy?: DownloadPolicy): Promise<StageError> {
    const e = await downloadRecording(url, { ...opts, policy }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StageError);
    const se = e as StageError;
    expect(se).toMatchObject({ reason: "download_failed", retryable: false, detail: "blocked by download policy" });
    expect(fs.existsSync(path.join(dir, "audio", "tmp")) ? fs.readdirSync(path.join(dir, "audio", "tmp")) : []).toEqual([]);
    return se;
  }

  it("denies link-local and cloud metadata addresses by default, however they are spelled", async () => {
    for (const host of [
      "169.254.169.254",
      "169.254.1.2",
      "[::ffff:169.254.169.254]",
      "[::ffff:a9fe:a9fe]",
      "[fd00:ec2::254]",
      "100.100.100.200",
      "[fe80::1]",
      "0.0.0.0",
    ]) {
      const e = await blocked(`http://${host}/latest/meta-data/`);
      expect(e.message).toMatch(/denied by default/);
    }
  });

  it("allows private ranges and loopback by default (PBXs live there)", () => {
    const p = new DownloadPolicy();
    for (const a of ["10.1.2.3", "172.16.0.9", "192.168.1.10", "127.0.0.1", "::1", "fc00::1", "100.64.0.1"])
      expect(p.check("pbx.local", a, 80)).toEqual({ allowed: true });
  });

  it("checks the address a name resolves to, not the name", async () => {
    const policy = new DownloadPolicy([], parseRuleList("127.0.0.0/8,::1", "--download-deny"));
    const before = server.hits.get("/audio/named.wav") ?? 0;
    const e = await blocked(`http://localhost:${port}/audio/named.wav`, policy);
    expect(e.message).toMatch(/--download-deny lists/);
    expect(server.hits.get("/audio/named.wav") ?? 0).toBe(before);
  });

  it("checks every redirect hop", async () => {
    const before = server.hits.get("/to") ?? 0;
    const e = await blocked(`${server.url}/to?u=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`);
    expect(e.message).toMatch(/169\.254\.169\.254/);
    expect(server.hits.get("/to")).toBe(before + 1);
    // A hop back to an allowed place is fine.
    const ok = await downloadRecording(`${server.url}/to?u=${encodeURIComponent(`http://localhost:${port}/audio/hop.wav`)}`, opts);
    expect(ok.format).toBe("wav");
  });

  it("denies the service's own listener, under any loopback alias of its port, and only that port", async () => {
    const policy = new DownloadPolicy();
    policy.denyListener("127.0.0.1", port);
    for (const host of ["127.0.0.1", "localhost", "127.0.0.2", "[::1]", "0.0.0.0"]) {
      const e = await blocked(`http://${host}:${port}/audio/self.wav`, policy);
      expect(e.message).toMatch(/own listener|denied by default/);
    }
    const other = new DownloadPolicy();
    other.denyListener("127.0.0.1", port + 1 > 65535 ? port - 1 : port + 1);
    expect((await downloadRecording(`${server.url}/audio/other.wav`, { ...opts, policy: other })).format).toBe("wav");
    const wildcard = new DownloadPolicy();
    wildcard.denyListener("0.0.0.0", 8080);
    expect(wildcard.check("x", "127.0.0.1", 8080).allowed).toBe(false);
    expect(wildcard.check("x", "10.9.9.9", 8080).allowed).toBe(true);
    expect(wildcard.check("x", "127.0.0.1", 8081).allowed).toBe(true);
  });

  it("an allow list restricts downloads to it; its ranges lift the built-in denies", async () => {
    const onlyPbx = new DownloadPolicy(parseRuleList("10.0.0.0/8, recordings.example.com", "--download-allow"));
    const e = await blocked(`${server.url}/audio/a.wav`, onlyPbx);
    expect(e.message).toMatch(/not in --download-allow/);
    expect(onlyPbx.check("pbx", "10.2.3.4", 80).allowed).toBe(true);
    expect(onlyPbx.check("recordings.example.com", "203.0.113.5", 443).allowed).toBe(true);
    // An allowed name still may not resolve into a denied range.
    expect(onlyPbx.check("recordings.example.com", "169.254.169.254", 80).allowed).toBe(false);
    const byName = new DownloadPolicy(parseRuleList("localhost", "--download-allow"));
    expect((await downloadRecording(`http://localhost:${port}/audio/by-name.wav`, { ...opts, policy: byName })).format).toBe("wav");
    const linkLocalPbx = new DownloadPolicy(parseRuleList("169.254.10.0/24", "--download-allow"));
    expect(linkLocalPbx.check("pbx", "169.254.10.7", 80).allowed).toBe(true);
    expect(linkLocalPbx.check("pbx", "169.254.169.254", 80).allowed).toBe(false);
    const subdomains = new DownloadPolicy(parseRuleList("*.pbx.example", "--download-allow"));
    expect(subdomains.check("a.pbx.example", "203.0.113.5", 80).allowed).toBe(true);
    expect(subdomains.check("evilpbx.example", "203.0.113.5", 80).allowed).toBe(false);
  });

  it("a deny entry wins over an allow entry", () => {
    const p = new DownloadPolicy(parseRuleList("10.0.0.0/8", "--download-allow"), parseRuleList("10.6.0.0/16", "--download-deny"));
    expect(p.check("pbx", "10.5.0.1", 80).allowed).toBe(true);
    expect(p.check("pbx", "10.6.0.1", 80).allowed).toBe(false);
  });

  it("bad list entries are config errors naming the setting", () => {
    for (const bad of ["10.0.0.0/33", "fe80::/129", "http://x/", "a b"]) {
      let err: unknown;
      try {
        loadConfig({}, { CALLREVIEW_DOWNLOAD_DENY: bad });
      } catch (e) {
        err = e;
      }
      expect(isAppError(err) && err.code).toBe("invalid_config");
      expect((err as Error).message).toContain("CALLREVIEW_DOWNLOAD_DENY");
    }
    const cfg = loadConfig({ downloadAllow: "10.0.0.0/8,pbx.local" }, {});
    expect(cfg.downloadAllow).toHaveLength(2);
  });

  it("sends User-Agent callreview/<version>", async () => {
    await downloadRecording(`${server.url}/audio/ua.wav`, opts);
    expect(server.lastHeaders()?.["user-agent"]).toBe(`callreview/${VERSION}`);
  });
});

describe("credentials in recording_url", () => {
  let server: AudioServer;
  beforeAll(async () => {
    server = await startAudioServer(fixture("jfk.wav"));
  });
  afterAll(() => server.close());

  it("are used for the download, then dropped from the stored call", async () => {
    const s = await testServices();
    try {
      const companyId = (await createCompany(s.store.db, { name: "A" })).id;
      const withCreds = `${server.url.replace("http://", "http://rec:s3cr%3At%40@")}/auth/rec.wav`;
      const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: { recording_url: withCreds } });
      expect(await runOnce(s)).toMatchObject({ result: "completed" });
      const row = await s.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow();
      expect(row.recording_url).toBe(`${server.url}/auth/rec.wav`);
      expect(row.audio_format).toBe("wav");
      const everything =
        JSON.stringify(await s.store.db.selectFrom("calls").selectAll().execute()) +
        JSON.stringify(await s.store.db.selectFrom("events").selectAll().execute()) +
        JSON.stringify(await s.store.db.selectFrom("jobs").selectAll().execute());
      expect(everything).not.toContain("s3cr");
    } finally {
      await s.dispose();
    }
  });

  it("never reach the job's error, the call's history or the failure detail when the download fails", async () => {
    const s = await testServices({ retryBaseMs: 0 });
    try {
      const companyId = (await createCompany(s.store.db, { name: "A" })).id;
      const { call } = await acceptCall(s.store.db, {
        companyId,
        intake: "api",
        fields: { recording_url: `${server.url.replace("http://", "http://rec:wrongpass@")}/auth/rec.wav` },
      });
      for (let i = 0; i < 10; i++) if ((await runOnce(s))?.result === "failed") break;
      const row = await s.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ processing_status: "failed", failure_reason: "download_failed", failure_detail: "HTTP 401" });
      const text =
        JSON.stringify(await s.store.db.selectFrom("jobs").selectAll().execute()) +
        JSON.stringify(await s.store.db.selectFrom("call_history").selectAll().execute()) +
        JSON.stringify(await s.store.db.selectFrom("events").selectAll().execute());
      expect(text).toContain("HTTP 401");
      expect(text).not.toContain("wrongpass");
    } finally {
      await s.dispose();
    }
  });
});

describe("download policy in serve", () => {
  it("a recording_url pointing at the service's own port fails with a visible detail", async () => {
    const { startService } = await import("../../src/serve.js");
    const { testConfig } = await import("../helpers/services.js");
    const { dir, cleanup } = tempDir();
    const running = await startService(testConfig(dir, { port: 0, workers: 1, retryBaseMs: 0 }));
    try {
      const companyId = (await createCompany(running.services.store.db, { name: "A" })).id;
      const ownPort = running.listener.port;
      const { call } = await acceptCall(running.services.store.db, {
        companyId,
        intake: "api",
        fields: { recording_url: `http://localhost:${ownPort}/healthz` },
      });
      for (let i = 0; i < 200; i++) {
        const row = await running.services.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow();
        if (row.processing_status === "failed") {
          expect(row).toMatchObject({ failure_reason: "download_failed", failure_detail: "blocked by download policy" });
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
        if (i === 199) throw new Error(`call still ${row.processing_status}`);
      }
    } finally {
      await running.stop();
      cleanup();
    }
  });
});
