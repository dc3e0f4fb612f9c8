import { FIRST_RUN_EVENTS } from "../helpers/events.js";
import { defaultAudioDir } from "../../src/config.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeAudioFile } from "../../src/audio/store.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { placeholderAnalyzer } from "../../src/pipeline/analyzers/placeholder.js";
import { startWorkers } from "../../src/pipeline/pool.js";
import type { Analyzer, Transcriber } from "../../src/pipeline/ports.js";
import type { PipelineParts } from "../../src/pipeline/select.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { setQueuePipeline } from "../../src/queue/job-pipeline.js";
import { latestTranscriptRow } from "../../src/store/transcripts.js";
import { fixture } from "../helpers/fixtures.js";
import { storeKinds, type StoreKind } from "../helpers/postgres.js";
import { servicesWithCompany, type testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

async function until(fn: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(storeKinds())("worker pool and progress on $name", (kind: StoreKind) => {
  let s: S;
  let companyId: number;
  beforeEach(async () => ({ s, companyId } = await servicesWithCompany({ databaseUrl: await kind.freshDatabaseUrl() })));
  afterEach(() => s.dispose());

  it("stop() lets a job finish within the grace time", async () => {
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const slow: Analyzer = {
      name: "slow",
      analyze: async (i) => {
        await new Promise((r) => setTimeout(r, 200));
        return placeholderAnalyzer.analyze(i);
      },
    };
    const pool = startWorkers(s, { count: 2, parts: { mode: "placeholder", transcriber: null, analyzer: slow, transcriptAnalyzer: () => slow } });
    await until(
      async () => (await s.store.db.selectFrom("jobs").select("status").where("call_id", "=", call.id).executeTakeFirstOrThrow()).status === "running",
    );
    await pool.stop(5_000);
    const row = await s.store.db.selectFrom("calls").selectAll().where("id", "=", call.id).executeTakeFirstOrThrow();
    expect(row.processing_status).toBe("complete");
  });

  it("stop() hands back a job that outlives the grace time; a later worker finishes it without repeating events", async () => {
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const stuck: Analyzer = {
      name: "stuck",
      analyze: (i) =>
        new Promise((resolve, reject) => {
          const t = setTimeout(() => resolve(placeholderAnalyzer.analyze(i)), 30_000);
          i.signal?.addEventListener("abort", () => {
            clearTimeout(t);
            reject(new Error("aborted"));
          });
        }),
    };
    const pool = startWorkers(s, { count: 1, parts: { mode: "placeholder", transcriber: null, analyzer: stuck, transcriptAnalyzer: () => stuck } });
    await until(
      async () =>
        (await s.store.db.selectFrom("calls").select("processing_status").where("id", "=", call.id).executeTakeFirstOrThrow()).processing_status ===
        "analyzing",
    );
    await pool.stop(50);
    const job = await s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", call.id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: "queued", attempts: 0, locked_by: null });
    expect(await runOnce(s)).toMatchObject({ result: "completed" });
    const types = (await s.store.db.selectFrom("events").select("type").where("call_id", "=", call.id).orderBy("id").execute()).map((e) => e.type);
    expect(types.slice(0, 5)).toEqual([...FIRST_RUN_EVENTS]);
  });

  it("the worker records the transcriber's progress on the job and stores the transcript with the transition", async () => {
    const audio = await storeAudioFile(defaultAudioDir(s.dir), fixture("jfk.wav"), { maxBytes: 1 << 30 });
    // The job must ask for the live pipeline, as a live process would queue it.
    setQueuePipeline(s.store.db, "live");
    const { call } = await acceptCall(s.store.db, {
      companyId,
      intake: "upload",
      fields: {},
      audio: { sha256: audio.sha256, format: audio.format, bytes: audio.bytes },
    });
    const seen: Array<{ stage: string | null; progress: number | null }> = [];
    const transcriber: Transcriber = {
      name: "test-double",
      async transcribe(input) {
        expect(input.audioPath).toBe(audio.path);
        input.onProgress?.(42);
        await new Promise((r) => setTimeout(r, 50));
        seen.push(await s.store.db.selectFrom("jobs").select(["stage", "progress"]).where("call_id", "=", call.id).executeTakeFirstOrThrow());
        return {
          segments: [{ t_start: 0, t_end: 3, speaker: "unknown", text: "ask not what your country can do for you" }],
          metrics: null,
          language: "en",
          model: "test",
        };
      },
    };
    const parts: PipelineParts = { mode: "live", transcriber, analyzer: placeholderAnalyzer, transcriptAnalyzer: () => placeholderAnalyzer };
    expect(await runOnce(s, { parts })).toMatchObject({ result: "completed" });
    expect(seen).toEqual([{ stage: "transcribe", progress: 42 }]);
    const t = await latestTranscriptRow(s.store.db, call.id);
    expect(t).toMatchObject({ source: "whisper", model: "test" });
  });
});
