import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { createServices } from "../../src/services.js";
import { LOST_ATTEMPT_ERROR } from "../../src/store/webhook-deliveries.js";
import { VERSION } from "../../src/version.js";
import { startAudioServer, type AudioServer } from "../helpers/audio-server.js";
import { runBinary, startServeBinary, type ServeProcess } from "../helpers/binary.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir, testConfig } from "../helpers/services.js";
import { selfSignedCert } from "../helpers/tls-cert.js";
import { startReceiver } from "../events/receiver.js";

const mode = (p: string) => fs.statSync(p).mode & 0o777;

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The compiled executable: private files under umask 000, the download policy, credentials, failure_detail, webhook attempts across kill -9. */
describe("egress and private files through the executable", () => {
  let parent: string;
  let cleanup: () => void;
  let audio: AudioServer;
  beforeAll(async () => {
    ({ dir: parent, cleanup } = tempDir());
    audio = await startAudioServer(fixture("jfk.wav"));
  });
  afterAll(async () => {
    await audio.close();
    cleanup();
  });

  it("under umask 000: data dir 0700, database, -wal, -shm and audio 0600; credentials never shown; own listener blocked with a visible detail", async () => {
    const dir = path.join(parent, "data");
    expect(runBinary(["--data-dir", dir, "company", "create", "Acme"], { umask: "000" }).code).toBe(0);
    const key = JSON.parse(runBinary(["--data-dir", dir, "key", "create", "--company", "1", "--json"], { umask: "000" }).stdout).key as string;
    const serve = await startServeBinary(["--data-dir", dir, "--workers", "1", "--pipeline", "placeholder", "--retry-base-ms", "0"], { umask: "000" });
    let stderr = "";
    try {
      const post = async (body: unknown) => {
        const res = await fetch(`${serve.url}/v1/calls`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { call_id: number }).call_id;
      };
      const get = async (id: number) =>
        (await (await fetch(`${serve.url}/v1/calls/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as Record<string, unknown>;
      const settled = (id: number) =>
        until(`call ${id}`, async () => {
          const c = await get(id);
          return c.processing_status === "complete" || c.processing_status === "failed" ? c : undefined;
        });

      const secretUrl = `${audio.url.replace("http://", "http://rec:s3cr%3At%40@")}/auth/call.wav`;
      const withCreds = await post({ external_call_id: "creds-1", recording_url: secretUrl });
      const self = await post({ external_call_id: "self-1", recording_url: `${serve.url.replace("127.0.0.1", "localhost")}/healthz` });
      const missing = await post({ external_call_id: "missing-1", recording_url: `${audio.url}/nothing-here.wav` });

      expect(await settled(withCreds)).toMatchObject({ processing_status: "complete", failure_detail: null });
      expect(await settled(self)).toMatchObject({
        processing_status: "failed",
        failure_reason: "download_failed",
        failure_detail: "blocked by download policy",
      });
      expect(audio.lastHeaders()?.["user-agent"]).toBe(`callreview/${VERSION}`);

      // Files, while the server runs (the -wal and -shm files exist now).
      expect(mode(dir)).toBe(0o700);
      for (const f of ["callreview.db", "callreview.db-wal", "callreview.db-shm"]) expect([f, mode(path.join(dir, f))]).toEqual([f, 0o600]);
      const audioFiles = fs.readdirSync(path.join(dir, "audio"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      expect(audioFiles.length).toBeGreaterThan(0);
      for (const e of audioFiles) expect(mode(path.join(e.parentPath, e.name))).toBe(0o600);

      const shown = runBinary(["--data-dir", dir, "calls", "show", String(withCreds)]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`${audio.url}/auth/call.wav`);
      const selfShown = runBinary(["--data-dir", dir, "calls", "show", String(self)]).stdout;
      expect(selfShown).toMatch(/failed \(download_failed: blocked by download policy\)/);
      const list = JSON.parse(runBinary(["--data-dir", dir, "calls", "list", "--json"]).stdout) as Array<Record<string, unknown>>;
      expect(list.find((c) => c.call_id === self)).toMatchObject({ failure_detail: "blocked by download policy" });

      // 404 is retried (retry base 0) and then fails with the status as its detail.
      expect(await settled(missing)).toMatchObject({ failure_reason: "download_failed", failure_detail: "HTTP 404" });
    } finally {
      expect(await serve.stop()).toBe(0);
      stderr = serve.stderr();
    }
    // Nowhere: not in the database, not in the log, not in any listing.
    const dbText = fs.readFileSync(path.join(dir, "callreview.db")).toString("latin1");
    expect(dbText).not.toContain("s3cr");
    expect(stderr).not.toContain("s3cr");
    for (const args of [
      ["calls", "show", "1", "--json"],
      ["calls", "show", "1"],
      ["calls", "list", "--json"],
    ])
      expect(runBinary(["--data-dir", dir, ...args]).stdout).not.toContain("s3cr");
  });

  it("https recordings: fetched from the checked address with the host name's SNI and certificate check", async () => {
    const dir = path.join(parent, "tls");
    fs.mkdirSync(path.join(parent, "certs"));
    const { key, cert, certFile } = selfSignedCert(path.join(parent, "certs"), ["localhost"]);
    const wav = fs.readFileSync(fixture("jfk.wav"));
    let sni: string | undefined;
    let served = 0;
    const server = https.createServer({ key, cert }, (req, res) => {
      served += 1;
      sni = (req.socket as unknown as { servername?: string }).servername || undefined;
      res.writeHead(200, { "content-type": "audio/wav" });
      res.end(wav);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    expect(runBinary(["--data-dir", dir, "company", "create", "Acme"]).code).toBe(0);
    const key2 = JSON.parse(runBinary(["--data-dir", dir, "key", "create", "--company", "1", "--json"]).stdout).key as string;
    // The certificate's CA is trusted the way an admin trusts a private CA.
    const serve = await startServeBinary(["--data-dir", dir, "--workers", "1", "--pipeline", "placeholder"], { env: { NODE_EXTRA_CA_CERTS: certFile } });
    try {
      const post = async (recording_url: string) => {
        const res = await fetch(`${serve.url}/v1/calls`, {
          method: "POST",
          headers: { authorization: `Bearer ${key2}`, "content-type": "application/json" },
          body: JSON.stringify({ recording_url }),
        });
        return ((await res.json()) as { call_id: number }).call_id;
      };
      const settled = (id: number) =>
        until(`call ${id}`, async () => {
          const c = (await (await fetch(`${serve.url}/v1/calls/${id}`, { headers: { authorization: `Bearer ${key2}` } })).json()) as Record<string, unknown>;
          return c.processing_status === "complete" || c.processing_status === "failed" ? c : undefined;
        });
      expect(await settled(await post(`https://localhost:${port}/rec.wav`))).toMatchObject({ processing_status: "complete" });
      expect(sni).toBe("localhost");
      // The certificate names localhost, not 127.0.0.1: refused.
      const hits = served;
      expect(await settled(await post(`https://127.0.0.1:${port}/rec.wav`))).toMatchObject({
        processing_status: "failed",
        failure_reason: "download_failed",
        failure_detail: "TLS error",
      });
      expect(served).toBe(hits);
    } finally {
      expect(await serve.stop()).toBe(0);
      server.closeAllConnections();
      server.close();
    }
  });

  it("a credential-carrying recording_url is not displayed before the download either", async () => {
    const dir = path.join(parent, "pending");
    expect(runBinary(["--data-dir", dir, "company", "create", "Acme"]).code).toBe(0);
    const writer = await createServices(testConfig(dir), { logger: silentLogger });
    try {
      const { acceptCall } = await import("../../src/intake/accept-call.js");
      await acceptCall(writer.store.db, { companyId: 1, intake: "api", fields: { recording_url: "https://u:hunter2@pbx.example/rec/1.wav" } });
    } finally {
      await writer.close();
    }
    const shown = runBinary(["--data-dir", dir, "calls", "show", "1"]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("https://pbx.example/rec/1.wav");
    expect(shown.stdout).not.toContain("hunter2");
  });

  it("kill -9 while a webhook is being sent: after the restart the resent delivery counts the lost attempt", async () => {
    const dir = path.join(parent, "crash");
    let held = 0;
    const r = await startReceiver({
      // The first request is held open until the sender dies; later ones are answered.
      answer: () => (++held === 1 ? { status: 200, wait: new Promise(() => undefined) } : { status: 200 }),
    });
    let serve: ServeProcess | undefined;
    try {
      expect(runBinary(["--data-dir", dir, "company", "create", "Acme"]).code).toBe(0);
      r.secrets = [
        JSON.parse(runBinary(["--data-dir", dir, "webhook", "add", "--company", "1", "--url", r.url, "--events", "call.received", "--json"]).stdout).secret,
      ];
      serve = await startServeBinary(["--data-dir", dir, "--workers", "0", "--log-level", "warn"]);
      const writer = await createServices(testConfig(dir), { logger: silentLogger });
      try {
        const { acceptCall } = await import("../../src/intake/accept-call.js");
        await acceptCall(writer.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "crash-1" } });
      } finally {
        await writer.close();
      }
      await r.waitFor(1);
      expect(r.received[0].headers["user-agent"]).toBe(`callreview/${VERSION}`);
      await serve.stop("SIGKILL");
      serve = undefined;

      // Before any restart the attempt is already counted, shown in flight.
      const afterKill = JSON.parse(runBinary(["--data-dir", dir, "deliveries", "show", "1", "--json"]).stdout);
      expect(afterKill.delivery ?? afterKill).toMatchObject({ attempts: 1 });
      expect(afterKill.attempts).toMatchObject([{ attempt: 1, in_flight: 1 }]);

      // The dead holder's lease (70 s) is moved into the past instead of waiting it out.
      const admin = await createServices(testConfig(dir), { logger: silentLogger });
      try {
        await admin.store.db
          .updateTable("webhook_deliveries")
          .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
          .execute();
      } finally {
        await admin.close();
      }
      serve = await startServeBinary(["--data-dir", dir, "--workers", "0", "--log-level", "warn"]);
      await r.waitFor(2);
      expect(r.received[1].headers["x-service-event-id"]).toBe(r.received[0].headers["x-service-event-id"]);
      await until("delivered", () => {
        const d = JSON.parse(runBinary(["--data-dir", dir, "deliveries", "list", "--json"]).stdout)[0];
        return d.status === "delivered" ? d : undefined;
      });
      expect(await serve.stop()).toBe(0);
      serve = undefined;
      const shown = JSON.parse(runBinary(["--data-dir", dir, "deliveries", "show", "1", "--json"]).stdout);
      expect(shown.delivery ?? shown).toMatchObject({ status: "delivered", attempts: 2 });
      expect(shown.attempts).toMatchObject([
        { attempt: 1, in_flight: 0, response_status: null, error: LOST_ATTEMPT_ERROR },
        { attempt: 2, in_flight: 0, response_status: 200 },
      ]);
      const text = runBinary(["--data-dir", dir, "deliveries", "show", "1"]).stdout;
      expect(text).toContain(LOST_ATTEMPT_ERROR);
    } finally {
      if (serve) await serve.stop("SIGKILL");
      await r.close();
    }
  });
});
