import { defaultAudioDir } from "../../src/config.js";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { acceptCall } from "../../src/intake/accept-call.js";
import { reprocessCall } from "../../src/intake/reprocess.js";
import { attachAudio } from "../../src/intake/attach-audio.js";
import { storeAudioFile } from "../../src/audio/store.js";
import { downloadRecording, type DownloadOptions } from "../../src/pipeline/download.js";
import { StageError } from "../../src/pipeline/ports.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { createCompany } from "../../src/store/companies.js";
import { startAudioServer, type AudioServer } from "../helpers/audio-server.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir, testServices } from "../helpers/services.js";

describe("recording_url download", () => {
  let server: AudioServer;
  let dir: string;
  let cleanup: () => void;
  let opts: DownloadOptions;
  beforeAll(async () => {
    server = await startAudioServer(fixture("jfk.wav"));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    opts = { audioRoot: path.join(dir, "audio"), maxBytes: 4 * 1024 * 1024, connectTimeoutMs: 300, totalTimeoutMs: 1500 };
  });
  afterEach(() => cleanup());

  async function failure(url: string, o: Partial<DownloadOptions> = {}): Promise<StageError> {
    const e = await downloadRecording(url, { ...opts, ...o }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StageError);
    expect((e as StageError).reason).toBe("download_failed");
    // Nothing half-written is ever left in the store.
    expect(fs.existsSync(path.join(dir, "audio", "tmp")) ? fs.readdirSync(path.join(dir, "audio", "tmp")) : []).toEqual([]);
    return e as StageError;
  }

  it("stores the audio content-addressed, sniffed as wav", async () => {
    const stored = await downloadRecording(`${server.url}/audio/jfk.wav`, opts);
    expect(stored.format).toBe("wav");
    expect(stored.bytes).toBe(fs.statSync(fixture("jfk.wav")).size);
    expect(fs.readFileSync(stored.path).equals(fs.readFileSync(fixture("jfk.wav")))).toBe(true);
  });

  it("follows up to 5 redirects", async () => {
    const stored = await downloadRecording(`${server.url}/redirect/5`, opts);
    expect(stored.format).toBe("wav");
  });

  it("a redirect loop fails after 5 redirects, not retryable", async () => {
    const e = await failure(`${server.url}/loop/0`);
    expect(e.message).toMatch(/more than 5 redirects/);
    expect(e.retryable).toBe(false);
    expect(server.hits.get("/loop/5")).toBe(1);
    expect(server.hits.get("/loop/6")).toBeUndefined();
  });

  it("404 fails retryable (the recording may not be uploaded yet)", async () => {
    const e = await failure(`${server.url}/missing.wav`);
    expect(e.message).toMatch(/HTTP 404/);
    expect(e.retryable).toBe(true);
    expect(e.detail).toBe("HTTP 404");
  });

  it("an HTML page is not audio: fails for good", async () => {
    const e = await failure(`${server.url}/html`);
    expect(e.message).toMatch(/not a supported audio type/);
    expect(e.retryable).toBe(false);
    expect(e.detail).toBe("not audio");
  });

  it("no response headers in time: connect timeout, retryable", async () => {
    const e = await failure(`${server.url}/slow`);
    expect(e.message).toMatch(/no response .* within 300 ms/);
    expect(e.retryable).toBe(true);
    expect(e.detail).toBe("timed out");
  });

  it("a body that stalls hits the total timeout, retryable", async () => {
    const e = await failure(`${server.url}/slow-body`);
    expect(e.message).toMatch(/timed out after 1500 ms/);
    expect(e.retryable).toBe(true);
    expect(e.detail).toBe("timed out");
  });

  it("a body that stalls hits the idle timeout long before the total one, retryable", async () => {
    const e = await failure(`${server.url}/slow-body`, { idleTimeoutMs: 200, totalTimeoutMs: 600_000 });
    expect(e.message).toMatch(/no data for 200 ms \(server stalled\)/);
    expect(e.retryable).toBe(true);
  });

  it("an oversize body is cut off at the cap while streaming", async () => {
    const e = await failure(`${server.url}/big`, { maxBytes: 2 * 1024 * 1024 });
    expect(e.message).toMatch(/larger than the limit/);
    expect(e.retryable).toBe(false);
    expect(e.detail).toBe("too large");
  });

  it("only http and https", async () => {
    const e = await failure("file:///etc/passwd");
    expect(e.message).toMatch(/only http and https/);
  });
});

describe("download inside the pipeline", () => {
  let server: AudioServer;
  beforeAll(async () => {
    server = await startAudioServer(fixture("jfk.wav"));
  });
  afterAll(() => server.close());

  it("retries with backoff through the queue, then the call fails with download_failed", async () => {
    let t = Date.now() + 1000;
    const s = await testServices({ retryBaseMs: 1000, downloadConnectTimeoutMs: 500, downloadTimeoutMs: 2000 }, { clock: { now: () => new Date(t) } });
    try {
      const companyId = (await createCompany(s.store.db, { name: "A" })).id;
      const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: { recording_url: `${server.url}/gone.wav` } });
      const results: string[] = [];
      for (let i = 0; i < 30 && !results.includes("failed"); i++) {
        const o = await runOnce(s);
        if (o) results.push(o.result);
        t += 60_000;
      }
      expect(results).toEqual(["retry", "retry", "retry", "retry", "failed"]);
      expect(server.hits.get("/gone.wav")).toBe(5);
      const row = await s.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ processing_status: "failed", failure_reason: "download_failed", failure_detail: "HTTP 404", report_status: "pending" });
      // The client sees the detail in the Call resource of the call.failed event too.
      const failed = await s.store.db
        .selectFrom("events")
        .selectAll()
        .where("call_id", "=", call.id)
        .where("type", "=", "call.failed")
        .executeTakeFirstOrThrow();
      expect(JSON.parse(failed.payload).data).toMatchObject({
        failure_reason: "download_failed",
        failure_detail: "HTTP 404",
        call: { failure_reason: "download_failed", failure_detail: "HTTP 404" },
      });
      const job = await s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", call.id).executeTakeFirstOrThrow();
      expect(job.last_error).toMatch(/HTTP 404/);
    } finally {
      await s.dispose();
    }
  });

  it("a downloaded recording is attached to the call and the call completes", async () => {
    const s = await testServices();
    try {
      const companyId = (await createCompany(s.store.db, { name: "A" })).id;
      const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: { recording_url: `${server.url}/audio/ok.wav` } });
      expect(await runOnce(s)).toMatchObject({ result: "completed" });
      const row = await s.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ processing_status: "complete", audio_format: "wav", audio_bytes: fs.statSync(fixture("jfk.wav")).size });
      // Reprocess fetches the recording again.
      await reprocessCall(s.store.db, { companyId, callId: call.id });
      expect(await runOnce(s)).toMatchObject({ result: "completed" });
      expect(server.hits.get("/audio/ok.wav")).toBe(2);
    } finally {
      await s.dispose();
    }
  });

  it("audio attached after a failed download is used instead of fetching the broken URL again", async () => {
    const s = await testServices({ retryBaseMs: 0 });
    try {
      const companyId = (await createCompany(s.store.db, { name: "A" })).id;
      const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: { recording_url: `${server.url}/html` } });
      expect(await runOnce(s)).toMatchObject({ result: "failed", reason: "download_failed" });
      const stored = await storeAudioFile(defaultAudioDir(s.dir), fixture("jfk.wav"), { maxBytes: 1 << 30 });
      await attachAudio(s.store.db, { companyId, callId: call.id, audio: { sha256: stored.sha256, format: stored.format, bytes: stored.bytes } });
      expect(await runOnce(s)).toMatchObject({ result: "completed" });
      expect(server.hits.get("/html")).toBe(1);
    } finally {
      await s.dispose();
    }
  });
});
