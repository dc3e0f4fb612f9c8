import { dirArgs } from "../helpers/cli.js";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite } from "../../src/store/driver.js";
import { startAudioServer, type AudioServer } from "../helpers/audio-server.js";
import { BUILD_TIMEOUT_MS, ensureBinary, startServeBinary, type ServeProcess, companyAndKeyBinary } from "../helpers/binary.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

const ONCE_PER_CALL = ["call.received", "call.processing_started", "call.transcription_completed", "call.analysis_completed", "call.report_completed"];

function setup(dir: string): string {
  return companyAndKeyBinary(["--data-dir", dir]).key;
}

async function submit(url: string, key: string, body: object): Promise<number> {
  const r = await fetch(`${url}/v1/calls`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { call_id: number }).call_id;
}

let servers_log: () => string = () => "";
async function readDb(dir: string) {
  const { db } = await openSqlite(path.join(dir, "callreview.db"));
  try {
    const calls = await db.selectFrom("calls").select(["id", "processing_status", "failure_reason"]).orderBy("id").execute();
    const events = await db.selectFrom("events").select(["call_id", "type"]).execute();
    const reports = await db.selectFrom("reports").select(["call_id", "version"]).execute();
    const jobs = await db.selectFrom("jobs").select(["call_id", "status", "attempts", "locked_by"]).execute();
    return { calls, events, reports, jobs };
  } finally {
    await db.destroy();
  }
}

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60_000, debug?: () => Promise<unknown>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${debug ? `: ${JSON.stringify(await debug())}` : ""}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every call complete, one report, each once-per-call event exactly once. */
function expectExactlyOnce(state: Awaited<ReturnType<typeof readDb>>, n: number) {
  expect(state.calls).toHaveLength(n);
  expect(state.calls.filter((c) => c.processing_status !== "complete")).toEqual([]);
  for (const c of state.calls) {
    const types = state.events.filter((e) => e.call_id === c.id).map((e) => e.type);
    for (const t of ONCE_PER_CALL) expect({ call: c.id, type: t, count: types.filter((x) => x === t).length }).toEqual({ call: c.id, type: t, count: 1 });
    for (const t of new Set(types)) expect({ call: c.id, type: t, count: types.filter((x) => x === t).length }).toEqual({ call: c.id, type: t, count: 1 });
    expect(state.reports.filter((r) => r.call_id === c.id)).toEqual([{ call_id: c.id, version: 1 }]);
  }
  expect(state.jobs.filter((j) => j.status !== "completed")).toEqual([]);
}

/** Waits until every call is complete and every job completed; on timeout the message shows what is left and the log. */
function allComplete(dir: string, log: () => string) {
  return until(
    "all complete",
    async () => {
      const s = await readDb(dir);
      return s.calls.every((c) => c.processing_status === "complete") && s.jobs.every((j) => j.status === "completed") && s;
    },
    60_000,
    async () => {
      const s = await readDb(dir);
      return { calls: s.calls.filter((c) => c.processing_status !== "complete"), jobs: s.jobs.filter((j) => j.status !== "completed"), log: log() };
    },
  );
}

describe("crash safety with the compiled executable", () => {
  let audio: AudioServer;
  beforeAll(async () => {
    ensureBinary();
    // Every download takes a while, so work is really in flight when the server dies.
    audio = await startAudioServer(fixture("jfk.wav"), { delayMs: 150 });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => audio.close());

  const serveArgs = (dir: string) => [
    ...dirArgs(dir),
    "--pipeline",
    "placeholder",
    "--rate-limit",
    "0",
    "--job-lease-seconds",
    "2",
    "--workers",
    "2",
    "--log-level",
    "warn",
  ];

  it("kill -9 mid-run, restart: all 50 calls complete, nothing stuck, every event exactly once", async () => {
    const { dir, cleanup } = tempDir();
    let server: ServeProcess | undefined;
    try {
      const key = setup(dir);
      server = await startServeBinary(serveArgs(dir));
      const ids: number[] = [];
      for (let i = 0; i < 50; i++)
        ids.push(
          await submit(server.url, key, {
            external_call_id: `crash-${i}`,
            rep_name: `Rep ${i}`,
            duration_seconds: 60 + i,
            recording_url: `${audio.url}/audio/${i}.wav`,
          }),
        );
      // Wait until some calls are done and others are mid-flight, then kill without warning.
      await until("work in flight", async () => {
        const s = await readDb(dir);
        const done = s.calls.filter((c) => c.processing_status === "complete").length;
        return done >= 3 && s.jobs.some((j) => j.status === "running") && s;
      });
      server.child.kill("SIGKILL");
      await server.stop();
      const killed = await readDb(dir);
      expect(killed.calls.filter((c) => c.processing_status !== "complete").length).toBeGreaterThan(0);
      expect(killed.jobs.filter((j) => j.status === "running").length).toBeGreaterThan(0);

      server = await startServeBinary(serveArgs(dir));
      servers_log = () => server!.stderr().slice(-3000);
      const final = await allComplete(dir, () => servers_log());
      expectExactlyOnce(final, 50);
      // Jobs that were running at the kill were taken over after their lease: they show a second attempt.
      expect(final.jobs.filter((j) => j.attempts >= 2).length).toBeGreaterThan(0);
      expect(await server.stop("SIGTERM")).toBe(0);
    } finally {
      if (server && server.child.exitCode === null) await server.stop("SIGKILL");
      cleanup();
    }
  }, 120_000);

  it("two serve processes on one data dir never process a call twice", async () => {
    const { dir, cleanup } = tempDir();
    const servers: ServeProcess[] = [];
    try {
      const key = setup(dir);
      servers.push(await startServeBinary(serveArgs(dir)));
      servers.push(await startServeBinary(serveArgs(dir)));
      servers_log = () => servers.map((s) => s.stderr().slice(-1500)).join("\n");
      const both = new Set(servers.map((s) => String(s.child.pid)));
      const pidsOf = (st: Awaited<ReturnType<typeof readDb>>) => new Set(st.jobs.map((j) => j.locked_by!.split(":")[1]));
      // Calls keep coming, a round at a time, until both processes are seen taking jobs: on a loaded
      // machine one process can drain a round before the other polls (up to five rounds).
      let n = 0;
      let final: Awaited<ReturnType<typeof readDb>> | undefined;
      for (let round = 0; round < 5 && (!final || pidsOf(final).size < 2); round++) {
        for (let i = 0; i < 30; i++, n++)
          await submit(servers[n % 2].url, key, {
            external_call_id: `two-${n}`,
            duration_seconds: 30,
            ...(i < 20 ? { recording_url: `${audio.url}/audio/t${n}.wav` } : {}),
          });
        final = await allComplete(dir, () => servers_log());
      }
      expectExactlyOnce(final!, n);
      // No job needed a second attempt: nobody stole a live lease.
      expect(final!.jobs.filter((j) => j.attempts !== 1)).toEqual([]);
      // Both processes really took part (worker ids are host:pid:n:random).
      expect(pidsOf(final!)).toEqual(both);
      for (const s of servers) expect(await s.stop("SIGTERM")).toBe(0);
    } finally {
      for (const s of servers) if (s.child.exitCode === null) await s.stop("SIGKILL");
      cleanup();
    }
  }, 120_000);
});
