import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportSchema } from "../../src/report/schema.js";
import { startReceiver, type Receiver } from "../events/receiver.js";
import { runBinary, startServeBinary } from "../helpers/binary.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

/**
 * One live call through the compiled executable, end to end: upload jfk.wav ->
 * whisper.cpp (the weightless test model: no words) with Silero VAD -> rules
 * analysis -> call.report_completed delivered, signed, to a receiver.
 */
describe("a live call through the executable", () => {
  let dir: string;
  let cleanup: () => void;
  let receiver: Receiver;
  beforeAll(async () => {
    ({ dir, cleanup } = tempDir("callreview-live-"));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    cleanup();
  });

  it("upload -> transcribing -> analyzing (rules) -> complete, with a signed report_completed webhook carrying a valid report", async () => {
    const models = path.join(dir, "models");
    fs.mkdirSync(models);
    fs.symlinkSync(fixture("for-tests-ggml-tiny.en.bin"), path.join(models, "for-tests-ggml-tiny.en.bin"));
    fs.symlinkSync(fixture("for-tests-silero-v6.2.0-ggml.bin"), path.join(models, "for-tests-silero-v6.2.0-ggml.bin"));
    const base = ["--data-dir", path.join(dir, "data"), "--models-dir", models];
    expect(runBinary([...base, "company", "create", "Acme", "--json"]).code).toBe(0);
    const key = JSON.parse(runBinary([...base, "key", "create", "--company", "1", "--json"]).stdout).key as string;
    const hook = runBinary([...base, "webhook", "add", "--company", "1", "--url", receiver.url, "--events", "call.report_completed,call.failed", "--json"]);
    expect(hook.code).toBe(0);
    receiver.secrets = [JSON.parse(hook.stdout).secret];

    const serve = await startServeBinary([...base, "--pipeline", "live", "--analyzer", "rules", "--workers", "1", "--log-level", "warn"]);
    try {
      const health = await (await fetch(`${serve.url}/healthz`)).json();
      expect(health).toMatchObject({ pipeline: "live", analyzer: "rules", transcription: { whisper_model: "for-tests-ggml-tiny.en.bin" } });

      const form = new FormData();
      form.append("file", new Blob([fs.readFileSync(fixture("jfk.wav"))]), "jfk.wav");
      form.append("rep_name", "Dana");
      const up = await fetch(`${serve.url}/v1/uploads`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
      expect(up.status).toBe(201);
      const { call_id } = await up.json();

      await receiver.waitFor(1, 240_000);
      const delivery = receiver.received[0];
      expect(delivery.verified).toEqual([true]);
      expect(delivery.body.type).toBe("call.report_completed");
      expect(delivery.body.data.call).toMatchObject({
        call_id,
        processing_status: "complete",
        report_status: "ready",
        report_url: `/api/v1/calls/${call_id}/report`,
      });
      const report = ReportSchema.parse(delivery.body.data.report);
      // The weightless model recognises no words: the report must say so rather than invent content.
      expect(report.confidence_level).toBe("low");
      expect(report.summary).toMatch(/no speech was recognised/i);

      const transcript = await (await fetch(`${serve.url}/api/v1/calls/${call_id}/transcript`, { headers: { "x-api-key": key } })).json();
      expect(transcript).toMatchObject({ call_id, segments: [], model: "for-tests-ggml-tiny.en.bin" });
      expect(transcript.metrics.speech_seconds).toBeGreaterThan(5);
      const stored = await (await fetch(`${serve.url}/api/v1/calls/${call_id}/report`, { headers: { "x-api-key": key } })).json();
      expect(stored.report).toEqual(delivery.body.data.report);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  }, 300_000);
});
