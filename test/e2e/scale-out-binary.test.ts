import fs from "node:fs";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/store/schema.js";
import { openPostgres } from "../../src/store/postgres.js";
import { startReceiver, type Receiver } from "../events/receiver.js";
import { startAudioServer, type AudioServer } from "../helpers/audio-server.js";
import { binaryPath, BUILD_TIMEOUT_MS, ensureBinary, runBinary, startServeBinary, type ServeProcess } from "../helpers/binary.js";
import { fixture } from "../helpers/fixtures.js";
import { createDatabase, pgAdminUrl } from "../helpers/postgres.js";
import { tempDir } from "../helpers/services.js";

const ONCE_PER_CALL = ["call.received", "call.processing_started", "call.transcription_completed", "call.analysis_completed", "call.report_completed"];

interface WorkerProcess {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts `callreview worker` and resolves once it says it runs. */
function startWorkerBinary(args: string[]): Promise<WorkerProcess> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CALLREVIEW_"))) as Record<string, string>;
  const child = spawn(binaryPath, ["worker", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", () => undefined);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      if (err.includes("callreview worker running")) resolve({ child, stderr: () => err, exited });
    });
    child.once("exit", (code) => reject(new Error(`worker exited with ${code} before running:\n${err}`)));
  });
}

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function readDb(db: Kysely<Database>) {
  const calls = await db.selectFrom("calls").select(["id", "processing_status"]).orderBy("id").execute();
  const events = await db.selectFrom("events").select(["event_id", "call_id", "type"]).execute();
  const reports = await db.selectFrom("reports").select(["call_id", "version"]).execute();
  const jobs = await db.selectFrom("jobs").select(["call_id", "status", "attempts", "locked_by"]).execute();
  return { calls, events, reports, jobs };
}

const admin = pgAdminUrl();

describe.skipIf(!admin)("scale-out on PostgreSQL with the compiled executable", () => {
  let audio: AudioServer;
  beforeAll(async () => {
    ensureBinary();
    // Every download takes a while, so work is really in flight when a worker dies.
    audio = await startAudioServer(fixture("jfk.wav"), { delayMs: 150 });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => audio.close());

  it("migrate applies the schema once; serve and worker refuse a schema from a newer version", async () => {
    const url = await createDatabase(admin!);
    const { dir, cleanup } = tempDir();
    try {
      const first = runBinary(["migrate", "--database-url", url, "--data-dir", dir, "--json"]);
      expect(first.code).toBe(0);
      const out = JSON.parse(first.stdout);
      expect(out).toMatchObject({ driver: "pg", schema_version: out.latest_schema });
      expect(out.applied.length).toBeGreaterThan(5);
      expect(out.database).not.toContain("callreview-test");
      expect(JSON.parse(runBinary(["migrate", "--database-url", url, "--data-dir", dir, "--json"]).stdout).applied).toEqual([]);

      const db = await openPostgres(url);
      await db
        .insertInto("kysely_migration" as never)
        .values({ name: "999_from_the_future", timestamp: "2030-01-01T00:00:00.000Z" } as never)
        .execute();
      await db.destroy();
      for (const cmd of [["serve", "--port", "0"], ["worker"]]) {
        const r = runBinary([...cmd, "--database-url", url, "--data-dir", dir, "--pipeline", "placeholder"]);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/newer version of callreview \(unknown schema version 999_from_the_future\)/);
      }
    } finally {
      cleanup();
    }
  }, 120_000);

  it("1 API and 3 worker processes, one killed -9 mid-job: every call completes once, every event arrives signed", async () => {
    const url = await createDatabase(admin!);
    const { dir, cleanup } = tempDir();
    // One shared audio dir (the NFS mount of a real deployment); each process its own data dir.
    const sharedAudio = path.join(dir, "shared-audio");
    const on = (dataDir: string) => ["--database-url", url, "--data-dir", dataDir, "--audio-dir", sharedAudio, "--models-dir", path.join(dir, "models")];
    const global = on(path.join(dir, "admin"));
    let api: ServeProcess | undefined;
    const workers: WorkerProcess[] = [];
    let receiver: Receiver | undefined;
    const db = await openPostgres(url);
    try {
      expect(runBinary([...global, "migrate"]).code).toBe(0);
      const company = JSON.parse(runBinary([...global, "company", "create", "Acme", "--json"]).stdout);
      const key = JSON.parse(runBinary([...global, "key", "create", "--company", String(company.id), "--json"]).stdout).key;
      receiver = await startReceiver();
      const endpoint = JSON.parse(runBinary([...global, "webhook", "add", "--company", String(company.id), "--url", receiver.url, "--json"]).stdout);
      receiver.secrets.push(endpoint.secret);

      api = await startServeBinary([...on(path.join(dir, "api")), "--pipeline", "placeholder", "--rate-limit", "0", "--workers", "0", "--log-level", "warn"]);
      const workerArgs = ["--pipeline", "placeholder", "--workers", "2", "--job-lease-seconds", "2", "--retry-base-ms", "0", "--log-level", "warn"];
      for (let i = 0; i < 3; i++) workers.push(await startWorkerBinary([...on(path.join(dir, `worker-${i}`)), ...workerArgs]));

      let n = 0;
      const submit = async () => {
        const i = n++;
        const r = await fetch(`${api!.url}/v1/calls`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ external_call_id: `scale-${i}`, duration_seconds: 30, recording_url: `${audio.url}/audio/${i}.wav` }),
        });
        expect(r.status).toBe(201);
      };
      for (let i = 0; i < 36; i++) await submit();
      // Kill one worker while it holds a job. On a loaded machine the other two can drain the queue
      // before this one is seen holding anything: more calls keep coming until it is.
      const victim = workers[0];
      await until("the first worker holding a job", async () => {
        const s = await readDb(db);
        if (s.jobs.some((j) => j.status === "running" && j.locked_by?.split(":")[1] === String(victim.child.pid))) return true;
        if (n < 200 && !s.jobs.some((j) => j.status === "queued")) for (let k = 0; k < 6; k++) await submit();
        return false;
      });
      victim.child.kill("SIGKILL");
      await victim.exited;

      const final = await until("all calls complete", async () => {
        const s = await readDb(db);
        return s.calls.length === n && s.calls.every((c) => c.processing_status === "complete") && s.jobs.every((j) => j.status === "completed") && s;
      });
      for (const c of final.calls) {
        const types = final.events.filter((e) => e.call_id === c.id).map((e) => e.type);
        for (const t of ONCE_PER_CALL) expect({ call: c.id, type: t, count: types.filter((x) => x === t).length }).toEqual({ call: c.id, type: t, count: 1 });
        expect(final.reports.filter((r) => r.call_id === c.id)).toEqual([{ call_id: c.id, version: 1 }]);
      }
      // Every downloaded recording sits in the shared audio dir, whole, and in no process's data dir.
      const shas = new Set((await db.selectFrom("calls").select("audio_sha256").execute()).map((c) => c.audio_sha256));
      expect(shas.size).toBe(1);
      for (const sha of shas) expect(fs.readFileSync(path.join(sharedAudio, sha!.slice(0, 2), sha!)).equals(fs.readFileSync(fixture("jfk.wav")))).toBe(true);
      // Only the killed worker may have left a partial download (the next worker start on its host sweeps it).
      const tmpNames = fs.existsSync(path.join(sharedAudio, "tmp")) ? fs.readdirSync(path.join(sharedAudio, "tmp")) : [];
      expect(tmpNames.filter((n) => !n.includes(`~${victim.child.pid}-`))).toEqual([]);
      for (const d of ["admin", "api", "worker-0", "worker-1", "worker-2"]) expect(fs.existsSync(path.join(dir, d, "audio"))).toBe(false);
      // Only the worker processes ran jobs (the API runs none with --workers 0), and more than one of them did.
      const pids = new Set(final.jobs.map((j) => j.locked_by!.split(":")[1]));
      expect([...pids].every((p) => workers.some((w) => String(w.child.pid) === p))).toBe(true);
      expect(pids.size).toBeGreaterThan(1);
      // The killed worker's job was taken over after its lease ran out.
      expect(final.jobs.filter((j) => j.attempts >= 2).length).toBeGreaterThan(0);

      // Every event reaches the receiver, each POST verifies with the endpoint's secret.
      const eventIds = new Set(final.events.map((e) => e.event_id));
      await until("every event delivered", async () => new Set(receiver!.received.map((r) => r.body?.id)).size >= eventIds.size);
      expect(new Set(receiver.received.map((r) => r.body.id))).toEqual(eventIds);
      expect(receiver.received.filter((r) => !r.verified[0])).toEqual([]);

      for (const w of workers.slice(1)) {
        w.child.kill("SIGTERM");
        expect(await w.exited).toBe(0);
      }
      expect(await api.stop("SIGTERM")).toBe(0);
    } finally {
      for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
      if (api && api.child.exitCode === null) await api.stop("SIGKILL");
      await receiver?.close();
      await db.destroy();
      cleanup();
    }
  }, 240_000);
});
