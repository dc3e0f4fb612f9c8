import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { audioPath, storeAudioFile } from "../../src/audio/store.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { RETENTION_ACTOR } from "../../src/lifecycle/audit.js";
import { runRetention } from "../../src/lifecycle/retention/run-retention.js";
import { RetentionSweeper } from "../../src/lifecycle/retention/sweeper.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { listAuditEntries } from "../../src/store/audit-log.js";
import { createCompany, updateCompany } from "../../src/store/companies.js";
import { manualClock } from "../helpers/api.js";
import { cli, json } from "../helpers/cli.js";
import { fixture } from "../helpers/fixtures.js";
import { createServices } from "../../src/services.js";
import { silentLogger } from "../../src/logger.js";
import { testConfig, testServices, tempDir } from "../helpers/services.js";

const DAY = 86_400_000;
const TRANSCRIPT = {
  segments: [{ t_start: 0, t_end: 3, speaker: "rep", text: "Hi, this call is being recorded." }],
  metrics: null,
  language: "en",
  model: "imported",
};

describe("retention policies", () => {
  const clock = manualClock("2030-01-01T00:00:00.000Z");
  let s: Awaited<ReturnType<typeof testServices>>;
  beforeEach(async () => {
    clock.set("2030-01-01T00:00:00.000Z");
    s = await testServices({}, { clock });
  });
  afterEach(() => s.dispose());

  async function call(companyId: number, external: string, withAudio: boolean) {
    const audio = withAudio ? await storeAudioFile(s.config.audioDir, fixture("jfk.wav"), { maxBytes: 50 << 20 }) : undefined;
    const id = (await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: external }, transcript: TRANSCRIPT, audio }, clock.now()))
      .call.id;
    while (await runOnce(s)) {}
    return { id, sha: audio?.sha256 };
  }

  it("expires audio, then transcripts, then whole calls, each after its own days; other companies are untouched", async () => {
    const acme = (await createCompany(s.store.db, { name: "Acme" })).id;
    const other = (await createCompany(s.store.db, { name: "Other" })).id;
    await updateCompany(s.store.db, acme, { settings: { retention: { audio_days: 10, transcripts_days: 20, calls_days: 30 } } });
    const old = await call(acme, "a-old", true);
    const keep = await call(other, "o-old", false);
    clock.advance(5 * DAY);
    const recent = await call(acme, "a-recent", false);

    clock.advance(6 * DAY); // old is 11 days old, recent 6
    let run = await runRetention(s, { actor: RETENTION_ACTOR });
    expect(run.companies).toEqual([expect.objectContaining({ company_id: acme, audio_expired: 1, transcripts_expired: 0, calls_erased: 0 })]);
    const oldRow = await s.store.db.selectFrom("calls").selectAll().where("id", "=", old.id).executeTakeFirstOrThrow();
    expect(oldRow.audio_sha256).toBeNull();
    expect(oldRow.report_status).toBe("ready");
    expect(fs.existsSync(audioPath(s.config.audioDir, old.sha!))).toBe(false);
    expect(await s.store.db.selectFrom("transcripts").select("id").where("call_id", "=", old.id).execute()).toHaveLength(1);

    clock.advance(10 * DAY); // 21 days
    run = await runRetention(s, { actor: RETENTION_ACTOR });
    expect(run.companies[0]).toMatchObject({ audio_expired: 0, transcripts_expired: 1, calls_erased: 0 });
    expect(await s.store.db.selectFrom("transcripts").select("id").where("call_id", "=", old.id).execute()).toEqual([]);
    expect(await s.store.db.selectFrom("reports").select("id").where("call_id", "=", old.id).execute()).toHaveLength(1);

    clock.advance(10 * DAY); // 31 days: old goes; recent (26 days) stays
    run = await runRetention(s, { actor: RETENTION_ACTOR });
    expect(run.companies[0]).toMatchObject({ calls_erased: 1 });
    const left = (await s.store.db.selectFrom("calls").select("id").orderBy("id").execute()).map((r) => r.id);
    expect(left).toEqual([keep.id, recent.id]);
    const deleted = await s.store.db.selectFrom("events").select("payload").where("type", "=", "call.deleted").execute();
    expect(JSON.parse(deleted[0].payload).data).toMatchObject({ call_id: old.id, reason: "retention" });

    const actions = (await listAuditEntries(s.store.db, { callId: old.id, limit: 10 })).map((e) => [e.action, e.actor]);
    expect(actions).toEqual([
      ["call.delete", "retention"],
      ["retention.transcript_expired", "retention"],
      ["retention.audio_expired", "retention"],
    ]);
  });

  it("a run bounded to a batch reports that work is left, and the next run goes on", async () => {
    const acme = (await createCompany(s.store.db, { name: "Acme" })).id;
    await updateCompany(s.store.db, acme, { settings: { retention: { calls_days: 1 } } });
    for (let i = 0; i < 5; i++) await call(acme, `c-${i}`, false);
    clock.advance(2 * DAY);
    const first = await runRetention(s, { actor: RETENTION_ACTOR, maxItems: 3 });
    expect(first).toMatchObject({ finished: false, companies: [expect.objectContaining({ calls_erased: 3 })] });
    const second = await runRetention(s, { actor: RETENTION_ACTOR, maxItems: 3 });
    expect(second).toMatchObject({ finished: true, companies: [expect.objectContaining({ calls_erased: 2 })] });
  });
});

describe("retention through the CLI", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("company update sets the days, doctor shows what is due, retention run applies it", async () => {
    await cli(["--data-dir", dir, "company", "create", "Acme"]);
    const bad = await cli(["--data-dir", dir, "company", "update", "1", "--retain-calls-days", "-3"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/invalid --retain-calls-days "-3"/);
    const set = await cli(["--data-dir", dir, "company", "update", "1", "--retain-audio-days", "30", "--retain-calls-days", "365", "--json"]);
    expect(json(set.stdout).settings.retention).toEqual({ audio_days: 30, calls_days: 365 });

    const s = await createServices(testConfig(dir), { logger: silentLogger });
    try {
      const longAgo = new Date(Date.now() - 400 * DAY);
      await acceptCall(s.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "ancient" } }, longAgo);
      await acceptCall(s.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "fresh" } });
    } finally {
      await s.close();
    }
    const doctor = json((await cli(["--data-dir", dir, "--models-dir", path.join(dir, "models"), "doctor", "--json"])).stdout);
    expect(doctor.retention).toEqual([
      { company_id: 1, policy: { audio_days: 30, transcripts_days: null, calls_days: 365 }, due: { audio: 0, transcripts: 0, calls: 1 } },
    ]);
    const r = await cli(["--data-dir", dir, "retention", "run", "--json"]);
    expect(r.stderr).toBe("");
    expect(json(r.stdout).companies[0]).toMatchObject({ company_id: 1, calls_erased: 1 });
    const calls = json((await cli(["--data-dir", dir, "calls", "list", "--json"])).stdout);
    expect(calls.map((c: { external_call_id: string }) => c.external_call_id)).toEqual(["fresh"]);
    const audit = json((await cli(["--data-dir", dir, "audit", "list", "--json"])).stdout).map((e: { action: string }) => e.action);
    expect(audit.slice(0, 2)).toEqual(["retention.run", "call.delete"]);
  });
});

describe("the retention sweeper inside serve", () => {
  it("applies the policies on its own and stops cleanly", async () => {
    const s = await testServices();
    try {
      const acme = (await createCompany(s.store.db, { name: "Acme" })).id;
      await updateCompany(s.store.db, acme, { settings: { retention: { calls_days: 1 } } });
      await acceptCall(s.store.db, { companyId: acme, intake: "api", fields: { external_call_id: "old" } }, new Date(Date.now() - 3 * DAY));
      await acceptCall(s.store.db, { companyId: acme, intake: "api", fields: { external_call_id: "new" } });
      const sweeper = new RetentionSweeper(s, 50);
      sweeper.start();
      const left = async () => (await s.store.db.selectFrom("calls").select("external_call_id").execute()).map((r) => r.external_call_id);
      for (let i = 0; i < 200 && (await left()).length > 1; i++) await new Promise((r) => setTimeout(r, 25));
      await sweeper.stop();
      expect(await left()).toEqual(["new"]);
      const run = await s.store.db.selectFrom("audit_log").select(["action", "actor"]).where("action", "=", "retention.run").execute();
      expect(run[0]).toEqual({ action: "retention.run", actor: "retention" });
    } finally {
      await s.dispose();
    }
  });
});
