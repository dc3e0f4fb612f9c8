import { TERMINAL_STATUSES } from "../../src/store/states.js";
import { dirArgs } from "../helpers/cli.js";
/**
 * Pipeline benchmark: N calls submitted through the API (POST /v1/calls) to the
 * compiled executable running the placeholder pipeline; prints calls/s from the
 * first submit to the last `complete`, and the server's memory (VmRSS / VmHWM
 * from /proc/<pid>/status). Run: npm run bench:pipeline [-- --calls 2000 --runs 3 --workers 2]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "../../src/store/db.js";
import { openSqlite } from "../../src/store/driver.js";
import { ensureBinary, startServeBinary, companyAndKeyBinary } from "../helpers/binary.js";

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const CALLS = arg("calls", 2000);
const RUNS = arg("runs", 3);
const WORKERS = arg("workers", 2);
const CONCURRENCY = arg("concurrency", 16);

function memKb(pid: number): { rss: number; hwm: number } {
  const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

async function oneRun(run: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "callreview-bench-"));
  try {
    const { key } = companyAndKeyBinary(["--data-dir", dir], "Bench");
    const server = await startServeBinary([
      ...dirArgs(dir),
      "--pipeline",
      "placeholder",
      "--rate-limit",
      "0",
      "--workers",
      String(WORKERS),
      "--log-level",
      "warn",
    ]);
    const pid = server.child.pid!;
    const { db } = await openSqlite(path.join(dir, "callreview.db"));
    const memory = sampleMemory(pid);
    const startRss = memKb(pid).rss;
    const t0 = performance.now();
    const submit = submitCalls(server.url, key, run);
    const { t1, rssHalf } = await waitForPipeline(db, pid);
    const rssEnd = memKb(pid).rss;
    const submitEnd = await submit.end;
    const failed = await db
      .selectFrom("calls")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("processing_status", "=", "failed")
      .executeTakeFirst();
    const peak = memory.stop();
    await db.destroy();
    const exit = await server.stop("SIGTERM");
    return {
      run,
      calls_per_s: CALLS / ((t1 - t0) / 1000),
      submit_per_s: CALLS / ((submitEnd - t0) / 1000),
      seconds: (t1 - t0) / 1000,
      start_rss_mb: startRss / 1024,
      rss_half_mb: rssHalf / 1024,
      rss_end_mb: rssEnd / 1024,
      peak_rss_mb: peak / 1024,
      failed: Number(failed?.n ?? 0),
      submit_errors: submit.errors(),
      exit,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Samples the server's memory every 50 ms until stopped; returns the peak (kB). */
function sampleMemory(pid: number): { stop(): number } {
  let peakRss = 0;
  let peakHwm = 0;
  const sampler = setInterval(() => {
    try {
      const m = memKb(pid);
      peakRss = Math.max(peakRss, m.rss);
      peakHwm = Math.max(peakHwm, m.hwm);
    } catch {
      /* process gone */
    }
  }, 50);
  return {
    stop() {
      clearInterval(sampler);
      return Math.max(peakRss, peakHwm);
    },
  };
}

/** CALLS submissions from CONCURRENCY clients; `end` is when the last one was answered. */
function submitCalls(url: string, key: string, run: number): { end: Promise<number>; errors(): number } {
  let next = 0;
  let submitErrors = 0;
  const submitter = async () => {
    while (next < CALLS) {
      const i = next++;
      const r = await fetch(`${url}/v1/calls`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          external_call_id: `bench-${run}-${i}`,
          rep_name: `Rep ${i % 37}`,
          customer_name: `Customer ${i}`,
          duration_seconds: 120 + (i % 900),
          metadata: { high_value_opportunity: i % 10 === 0 },
        }),
      });
      if (r.status !== 201) submitErrors++;
      await r.arrayBuffer();
    }
  };
  return { end: Promise.all(Array.from({ length: CONCURRENCY }, submitter)).then(() => performance.now()), errors: () => submitErrors };
}

async function finishedCalls(db: Db): Promise<number> {
  const row = await db
    .selectFrom("calls")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("processing_status", "in", TERMINAL_STATUSES)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Polls until every call is complete or failed; the server's RSS is taken once half are done. */
async function waitForPipeline(db: Db, pid: number): Promise<{ t1: number; rssHalf: number }> {
  let rssHalf = 0;
  let done = 0;
  while (done < CALLS) {
    await new Promise((r) => setTimeout(r, 25));
    done = await finishedCalls(db);
    if (!rssHalf && done >= CALLS / 2) rssHalf = memKb(pid).rss;
  }
  return { t1: performance.now(), rssHalf };
}

/**
 * Pipeline capacity alone: 2,000 calls accepted by a server with no workers,
 * then a server with workers drains them. Separates worker throughput from
 * API intake throughput.
 */
async function drainRun() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "callreview-bench-"));
  try {
    const { key } = companyAndKeyBinary(["--data-dir", dir], "Bench");
    const base = ["--data-dir", dir, "--models-dir", path.join(dir, "models"), "--pipeline", "placeholder", "--rate-limit", "0", "--log-level", "warn"];
    const intake = await startServeBinary([...base, "--workers", "0"]);
    let next = 0;
    const tIntake = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CALLS) {
          const i = next++;
          const r = await fetch(`${intake.url}/v1/calls`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({ external_call_id: `d-${i}`, duration_seconds: 300 }),
          });
          await r.arrayBuffer();
        }
      }),
    );
    const intakePerS = CALLS / ((performance.now() - tIntake) / 1000);
    await intake.stop("SIGTERM");
    const { db } = await openSqlite(path.join(dir, "callreview.db"));
    const t0 = performance.now();
    const server = await startServeBinary([...base, "--workers", String(WORKERS)]);
    let done = 0;
    let peak = 0;
    while (done < CALLS) {
      await new Promise((r) => setTimeout(r, 25));
      peak = Math.max(peak, memKb(server.child.pid!).rss);
      done = await finishedCalls(db);
    }
    const secs = (performance.now() - t0) / 1000;
    await db.destroy();
    await server.stop("SIGTERM");
    return { drain_per_s: CALLS / secs, intake_per_s: intakePerS, peak_rss_mb: peak / 1024 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

ensureBinary();
console.log(
  `pipeline bench: ${CALLS} calls via POST /v1/calls, placeholder pipeline, ${WORKERS} workers, ${CONCURRENCY} concurrent submitters, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "cpu"}), ${RUNS} runs`,
);
const results: Array<Awaited<ReturnType<typeof oneRun>>> = [];
for (let r = 1; r <= RUNS; r++) {
  const res = await oneRun(r);
  results.push(res);
  console.log(
    `run ${r}: ${res.calls_per_s.toFixed(0)} calls/s end to end (${res.seconds.toFixed(2)} s; submits ${res.submit_per_s.toFixed(0)}/s), RSS start ${res.start_rss_mb.toFixed(0)} MB, after ${CALLS / 2} ${res.rss_half_mb.toFixed(0)} MB, after ${CALLS} ${res.rss_end_mb.toFixed(0)} MB, peak ${res.peak_rss_mb.toFixed(0)} MB, failed ${res.failed}, submit errors ${res.submit_errors}, exit ${res.exit}`,
  );
}
const m = (k: keyof Awaited<ReturnType<typeof oneRun>>) => median(results.map((x) => Number(x[k])));
console.log(
  `median: ${m("calls_per_s").toFixed(0)} calls/s end to end, peak RSS ${m("peak_rss_mb").toFixed(0)} MB, RSS after ${CALLS / 2} calls ${m("rss_half_mb").toFixed(0)} MB, after ${CALLS} ${m("rss_end_mb").toFixed(0)} MB`,
);
const drains = [];
for (let r = 1; r <= RUNS; r++) {
  const d = await drainRun();
  drains.push(d);
  console.log(
    `drain run ${r}: ${d.drain_per_s.toFixed(0)} calls/s processed by ${WORKERS} workers (start-up included); its intake alone (no workers) ${d.intake_per_s.toFixed(0)} calls/s; peak RSS ${d.peak_rss_mb.toFixed(0)} MB`,
  );
}
console.log(
  `median drain: ${median(drains.map((d) => d.drain_per_s)).toFixed(0)} calls/s; median intake alone ${median(drains.map((d) => d.intake_per_s)).toFixed(0)} calls/s; load average now ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
