/**
 * PostgreSQL figures (prints, asserts nothing). Run: npm run bench:postgres
 * 1. Placeholder pipeline throughput with 1, 2 and 4 `callreview worker --workers 1`
 *    processes on one PostgreSQL: CALLS calls queued first, time from spawning the
 *    workers until every call is complete (process start-up included), median of RUNS.
 * 2. POST /v1/calls and GET /v1/calls/{id} against `serve --workers 0` on PostgreSQL
 *    and on SQLite (autocannon, 20 connections, SECONDS s per run, median of RUNS).
 * Uses the compiled executable and the embedded PostgreSQL of the test suite
 * (fsync off there, so the PostgreSQL figures exclude disk flushes; SQLite's default
 * synchronous=FULL does flush: BENCH_DB_SYNC=normal compares like with like).
 */
import { spawn } from "node:child_process";
import os from "node:os";
import autocannon from "autocannon";
import { openPostgres } from "../../src/store/postgres.js";
import { binaryPath, startServeBinary, companyAndKeyBinary } from "../helpers/binary.js";
import { startPostgres } from "../helpers/postgres-server.js";
import { createDatabase } from "../helpers/postgres.js";
import { tempDir } from "../helpers/services.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const DB_SYNC = process.env.BENCH_DB_SYNC ?? "full";
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function setup(global: string[]): string {
  return companyAndKeyBinary(global, "Bench").key;
}

async function pipelineRun(adminUrl: string, processes: number): Promise<number> {
  const url = await createDatabase(adminUrl);
  const dir = tempDir("callreview-bench-pg-");
  const global = ["--database-url", url, "--data-dir", dir.dir];
  const key = setup(global);
  const api = await startServeBinary([...global, "--workers", "0", "--rate-limit", "0", "--pipeline", "placeholder", "--log-level", "warn"]);
  const db = await openPostgres(url);
  try {
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    for (let i = 0; i < CALLS; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, CALLS - i) }, (_, j) =>
          fetch(`${api.url}/v1/calls`, { method: "POST", headers, body: JSON.stringify({ external_call_id: `b-${i + j}`, duration_seconds: 60 }) }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
      );
    }
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CALLREVIEW_")));
    const t0 = performance.now();
    const workers = Array.from({ length: processes }, () =>
      spawn(binaryPath, ["worker", ...global, "--workers", "1", "--pipeline", "placeholder", "--company-max-inflight", "0", "--log-level", "warn"], {
        env,
        stdio: "ignore",
      }),
    );
    for (;;) {
      const r = await db
        .selectFrom("calls")
        .select((e) => e.fn.countAll().as("n"))
        .where("processing_status", "=", "complete")
        .executeTakeFirstOrThrow();
      if (Number(r.n) >= CALLS) break;
      await new Promise((res) => setTimeout(res, 25));
    }
    const seconds = (performance.now() - t0) / 1000;
    await Promise.all(workers.map((w) => new Promise((res) => (w.once("exit", res), w.kill("SIGTERM")))));
    return CALLS / seconds;
  } finally {
    await db.destroy();
    await api.stop();
    dir.cleanup();
  }
}

function cannon(opts: autocannon.Options): Promise<{ rps: number; p50: number; p99: number; bad: number }> {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 20, duration: SECONDS, ...opts }, (err, r) => {
      if (err) return reject(err);
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.errors + r.timeouts + r.non2xx });
    });
  });
}

async function apiFigures(store: "postgres" | "sqlite", adminUrl: string) {
  const dir = tempDir("callreview-bench-pgapi-");
  const global = store === "postgres" ? ["--database-url", await createDatabase(adminUrl), "--data-dir", dir.dir] : ["--data-dir", dir.dir];
  const key = setup(global);
  const server = await startServeBinary([...global, "--workers", "0", "--rate-limit", "0", "--log-level", "warn", "--db-synchronous", DB_SYNC]);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  try {
    const first = await (await fetch(`${server.url}/v1/calls`, { method: "POST", headers, body: JSON.stringify({ external_call_id: "seed" }) })).json();
    let seq = 0;
    const post: autocannon.Options = {
      url: `${server.url}/v1/calls`,
      method: "POST",
      headers,
      requests: [
        {
          setupRequest: (req: any) => ({
            ...req,
            body: JSON.stringify({ external_call_id: `p-${process.pid}-${seq++}`, customer_name: "Customer", duration_seconds: 60 }),
          }),
        },
      ],
    };
    const get: autocannon.Options = { url: `${server.url}/v1/calls/${first.call_id}`, headers };
    const out: Record<string, string> = {};
    for (const [name, opts] of [
      ["POST /v1/calls", post],
      ["GET /v1/calls/{id}", get],
    ] as const) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await cannon(opts));
      out[name] =
        `${median(runs.map((r) => r.rps)).toFixed(0)} req/s (p50 ${median(runs.map((r) => r.p50))} ms, p99 ${median(runs.map((r) => r.p99))} ms, non-2xx/errors ${runs.reduce((n, r) => n + r.bad, 0)})`;
    }
    return out;
  } finally {
    await server.stop();
    dir.cleanup();
  }
}

async function main() {
  console.log(
    `machine: ${os.cpus().length} x ${os.cpus()[0]?.model}, load before ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const pg = await startPostgres();
  try {
    const base: number[] = [];
    for (const k of [1, 2, 4]) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await pipelineRun(pg.adminUrl, k));
      const m = median(runs);
      if (k === 1) base.push(m);
      console.log(
        `pipeline (placeholder, ${CALLS} calls) with ${k} worker process${k > 1 ? "es" : ""}: ${m.toFixed(0)} calls/s, efficiency per process ${((m / (k * base[0])) * 100).toFixed(0)} %`,
      );
    }
    for (const store of ["sqlite", "postgres"] as const) {
      const f = await apiFigures(store, pg.adminUrl);
      for (const [name, v] of Object.entries(f)) console.log(`${store.padEnd(8)} ${name.padEnd(20)} ${v}`);
    }
  } finally {
    await pg.stop();
  }
  console.log(
    `load after ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
