/**
 * REST API throughput: autocannon against `callreview serve` (the compiled
 * executable, --rate-limit 0), 50 connections, 10 s per run, median of RUNS.
 * Prints figures; asserts nothing. Run: npm run bench:api
 */
import os from "node:os";
import autocannon from "autocannon";
import { startServeBinary, companyAndKeyBinary } from "../helpers/binary.js";
import { tempDir } from "../helpers/services.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
/** Optional comma-separated substrings: run only the matching scenarios (e.g. BENCH_ONLY=POST). */
const ONLY = process.env.BENCH_ONLY?.split(",").filter(Boolean);
/** SQLite synchronous setting of the server: full (the default) or normal. */
const DB_SYNC = process.env.BENCH_DB_SYNC ?? "full";

interface Figure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function run(opts: autocannon.Options): Promise<Figure> {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, r) => {
      if (err) return reject(err);
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx });
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const loadBefore = os.loadavg();
  const dir = tempDir("callreview-bench-api-");
  const { key } = companyAndKeyBinary(["--data-dir", dir.dir], "Bench");
  const server = await startServeBinary(["--data-dir", dir.dir, "--rate-limit", "0", "--workers", "0", "--log-level", "warn", "--db-synchronous", DB_SYNC]);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  try {
    const callId = await seedCalls(server.url, headers);
    const results = await measure(scenarios(server.url, headers, callId));
    printResults(results, loadBefore);
  } finally {
    await server.stop();
    dir.cleanup();
  }
}

/** 60 calls to read back; returns the last one's id. */
async function seedCalls(url: string, headers: Record<string, string>): Promise<number> {
  let callId = 0;
  for (let i = 0; i < 60; i++) {
    const r = await fetch(`${url}/v1/calls`, {
      method: "POST",
      headers,
      body: JSON.stringify({ external_call_id: `seed-${i}`, customer_name: `Customer ${i}`, recording_url: `https://rec.example.com/${i}.mp3` }),
    });
    callId = (await r.json()).call_id;
  }
  return callId;
}

function scenarios(url: string, headers: Record<string, string>, callId: number): Array<[string, autocannon.Options]> {
  let seq = 0;
  const prefix = `${process.pid}-${Date.now()}`;
  return [
    ["GET /healthz (ceiling)", { url: `${url}/healthz` }],
    [`GET /v1/calls/{id}`, { url: `${url}/v1/calls/${callId}`, headers }],
    ["GET /v1/calls?limit=25", { url: `${url}/v1/calls?limit=25`, headers }],
    [
      "POST /v1/calls",
      {
        url: `${url}/v1/calls`,
        headers,
        requests: [
          {
            method: "POST",
            setupRequest: (req: Record<string, unknown>) => ({
              ...req,
              body: JSON.stringify({
                external_call_id: `bench-${prefix}-${seq++}`,
                rep_email: "rep@example.com",
                customer_name: "Bench",
                recording_url: "https://rec.example.com/a.mp3",
                metadata: { n: seq },
              }),
            }),
          },
        ],
      } as autocannon.Options,
    ],
  ];
}

/** Median of RUNS per scenario (errors summed). */
async function measure(list: Array<[string, autocannon.Options]>): Promise<Record<string, Figure>> {
  const results: Record<string, Figure> = {};
  for (const [name, opts] of list) {
    if (ONLY && !name.includes("healthz") && !ONLY.some((o) => name.includes(o))) continue;
    const figs: Figure[] = [];
    for (let i = 0; i < RUNS; i++) figs.push(await run(opts));
    results[name] = {
      rps: median(figs.map((f) => f.rps)),
      p50: median(figs.map((f) => f.p50)),
      p99: median(figs.map((f) => f.p99)),
      errors: figs.reduce((a, f) => a + f.errors, 0),
      non2xx: figs.reduce((a, f) => a + f.non2xx, 0),
    };
    process.stderr.write(`${name}: done\n`);
  }
  return results;
}

function printResults(results: Record<string, Figure>, loadBefore: number[]): void {
  const ceiling = results["GET /healthz (ceiling)"].rps;
  console.log(`\nREST API benchmark — ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), load generator on the same machine`);
  console.log(`compiled executable, --rate-limit 0, --db-synchronous ${DB_SYNC}, ${CONNECTIONS} connections, ${DURATION} s per run, median of ${RUNS} runs`);
  console.log(
    `load average before: ${loadBefore.map((l) => l.toFixed(2)).join(" ")}, after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
  console.log("| endpoint | req/s | p50 ms | p99 ms | vs ceiling | errors | non-2xx |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const [name, f] of Object.entries(results)) {
    console.log(`| ${name} | ${Math.round(f.rps)} | ${f.p50} | ${f.p99} | ${((f.rps / ceiling) * 100).toFixed(0)} % | ${f.errors} | ${f.non2xx} |`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
