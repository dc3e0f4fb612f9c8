import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeAudioFile } from "../../src/audio/store.js";
import { createApiKey } from "../../src/auth/api-keys.js";
import { createApp } from "../../src/http/app.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { createCompany } from "../../src/store/companies.js";
import { latestTranscriptRow } from "../../src/store/transcripts.js";
import { fixture } from "../helpers/fixtures.js";
import { testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

describe("live pipeline with the whisper transcriber", () => {
  let s: S;
  let key: string;
  let otherKey: string;
  let callId: number;
  const get = (id: number, k: string, base = "/v1") => createApp(s).request(`${base}/calls/${id}/transcript`, { headers: { Authorization: `Bearer ${k}` } });

  beforeAll(async () => {
    s = await testServices({ pipeline: "live", whisperThreads: 2 });
    fs.symlinkSync(fixture("for-tests-ggml-tiny.en.bin"), path.join(s.config.modelsDir, "for-tests-ggml-tiny.en.bin"));
    fs.symlinkSync(fixture("for-tests-silero-v6.2.0-ggml.bin"), path.join(s.config.modelsDir, "for-tests-silero-v6.2.0-ggml.bin"));
    const company = await createCompany(s.store.db, { name: "Acme" });
    const other = await createCompany(s.store.db, { name: "Other" });
    key = (await createApiKey(s.store.db, { companyId: company.id })).key;
    otherKey = (await createApiKey(s.store.db, { companyId: other.id })).key;
    const audio = await storeAudioFile(s.config.audioDir, fixture("jfk.wav"), { maxBytes: 10 * 1024 * 1024 });
    callId = (await acceptCall(s.store.db, { companyId: company.id, intake: "api", fields: { external_call_id: "jfk-1" }, audio })).call.id;
  });
  afterAll(() => s.dispose());

  it("409 report_not_ready with the status while no transcript exists", async () => {
    const r = await get(callId, key);
    expect(r.status).toBe(409);
    expect(await r.json()).toMatchObject({ error: "report_not_ready", status: "queued" });
  });

  it("the call goes queued -> transcribing -> analyzing with a stored transcript and talk metrics", async () => {
    const outcome = await runOnce(s);
    expect(outcome).toBeTruthy();
    const history = await s.store.db.selectFrom("call_history").select(["to_status"]).where("call_id", "=", callId).orderBy("id").execute();
    const statuses = history.map((h) => h.to_status);
    expect(statuses.slice(0, 3)).toEqual(["queued", "transcribing", "analyzing"]);
    const row = await latestTranscriptRow(s.store.db, callId);
    expect(row).toMatchObject({ source: "whisper", model: "for-tests-ggml-tiny.en.bin", language: "en" });
    expect(JSON.parse(row!.segments)).toEqual([]);
    expect(JSON.parse(row!.metrics!).speech_seconds).toBeGreaterThan(5);
  });

  it("GET /v1 and /api/v1 .../transcript return segments, metrics, language, model", async () => {
    for (const base of ["/v1", "/api/v1"]) {
      const r = await get(callId, key, base);
      expect(r.status).toBe(200);
      const body = await r.json();
      expect(body).toMatchObject({ call_id: callId, segments: [], language: "en", model: "for-tests-ggml-tiny.en.bin" });
      expect(body.metrics).toMatchObject({ talk_ratio: null, turns: null });
      expect(body.metrics.duration_seconds).toBeCloseTo(11, 0);
    }
  });

  it("another company's call is 404 not_found", async () => {
    const r = await get(callId, otherKey);
    expect(r.status).toBe(404);
    expect((await r.json()).error).toBe("not_found");
  });

  it("/healthz names the transcription and VAD models, keeping status/version/pipeline", async () => {
    const body = await (await createApp(s).request("/healthz")).json();
    expect(body).toMatchObject({
      status: "ok",
      pipeline: "live",
      transcription: { whisper_model: "for-tests-ggml-tiny.en.bin", vad_model: "for-tests-silero-v6.2.0-ggml.bin" },
    });
    expect(typeof body.version).toBe("string");
  });

  it("the route is in the OpenAPI document", async () => {
    const r = await createApp(s).request("/v1/openapi.json");
    if (r.status !== 200) return expect.fail(`openapi document not served at /v1/openapi.json (${r.status})`);
    const doc = await r.json();
    expect(Object.keys(doc.paths).some((p) => p.endsWith("/calls/{id}/transcript"))).toBe(true);
  });
});
