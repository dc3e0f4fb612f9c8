/**
 * Webhook dispatcher throughput: 5,000 events fanned out to 3 local receivers
 * (one answers each request only after 2 s). Prints deliveries/s to the two
 * fast receivers with and without the slow one, median of several runs.
 * Run: npm run bench:webhooks [-- --events 5000 --runs 3]
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { Dispatcher, DEFAULT_DISPATCHER_OPTIONS } from "../../src/events/dispatcher.js";
import { createWebhookEndpoint } from "../../src/events/endpoints.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { silentLogger } from "../../src/logger.js";
import { isBun } from "../../src/runtime.js";
import { createCompany } from "../../src/store/companies.js";
import { systemClock } from "../../src/time.js";
import { testServices } from "../helpers/services.js";

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const EVENTS = arg("events", 5000);
const RUNS = arg("runs", 3);
const SLOW_MS = 2000;

interface Rx {
  url: string;
  count: number;
  close(): Promise<void>;
  done(n: number): Promise<number>;
}

async function receiver(delayMs: number): Promise<Rx> {
  let waiters: Array<() => boolean> = [];
  const rx: Rx = {
    url: "",
    count: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
    done: (n) =>
      new Promise<number>((resolve) => {
        const check = () => {
          if (rx.count < n) return false;
          resolve(performance.now());
          return true;
        };
        if (!check()) waiters.push(check);
      }),
  };
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    req.resume();
    req.on("end", () => {
      const answer = () => {
        rx.count += 1;
        waiters = waiters.filter((w) => !w());
        res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  rx.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return rx;
}

async function once(withSlow: boolean): Promise<{ seconds: number; perSecond: number; slowDelivered: number }> {
  const s = await testServices();
  const fast = [await receiver(0), await receiver(0)];
  const slow = withSlow ? await receiver(SLOW_MS) : undefined;
  try {
    const company = await createCompany(s.store.db, { name: "Bench" });
    for (const rx of [...fast, ...(slow ? [slow] : [])]) await createWebhookEndpoint(s.store.db, { companyId: company.id, url: rx.url });
    for (let i = 0; i < EVENTS; i++) await acceptCall(s.store.db, { companyId: company.id, intake: "api", fields: { external_call_id: `b-${i}` } });
    const d = new Dispatcher(s.store.db, systemClock, silentLogger);
    const t0 = performance.now();
    d.start();
    const ends = await Promise.all(fast.map((rx) => rx.done(EVENTS)));
    const seconds = (Math.max(...ends) - t0) / 1000;
    const slowDelivered = slow?.count ?? 0;
    await d.stop();
    return { seconds, perSecond: (EVENTS * fast.length) / seconds, slowDelivered };
  } finally {
    for (const rx of [...fast, ...(slow ? [slow] : [])]) await rx.close();
    await s.dispose();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const o = DEFAULT_DISPATCHER_OPTIONS;
  console.log(`webhook dispatcher bench: ${EVENTS} events x 3 receivers (one answers after ${SLOW_MS} ms), ${RUNS} runs each`);
  console.log(
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown"}), ${isBun ? `bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}` : `node ${process.version}`}; concurrency ${o.concurrency}, per endpoint ${o.perEndpoint}`,
  );
  const base: number[] = [];
  const mixed: number[] = [];
  const slowCounts: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const b = await once(false);
    base.push(b.seconds);
    const m = await once(true);
    mixed.push(m.seconds);
    slowCounts.push(m.slowDelivered);
    console.log(
      `  run ${i + 1}: 2 fast only ${b.seconds.toFixed(2)} s (${b.perSecond.toFixed(0)}/s); with the slow one ${m.seconds.toFixed(2)} s (${m.perSecond.toFixed(0)}/s), slow receiver got ${m.slowDelivered} meanwhile`,
    );
  }
  const fastOnly = median(base);
  const withSlow = median(mixed);
  console.log(`fast receivers, no slow receiver:   ${((EVENTS * 2) / fastOnly).toFixed(0)} deliveries/s (median ${fastOnly.toFixed(2)} s for ${EVENTS * 2})`);
  console.log(`fast receivers, slow one present:   ${((EVENTS * 2) / withSlow).toFixed(0)} deliveries/s (median ${withSlow.toFixed(2)} s)`);
  console.log(`delay the slow receiver adds:       ${(withSlow - fastOnly).toFixed(2)} s (${(((withSlow - fastOnly) / fastOnly) * 100).toFixed(1)} %)`);
  console.log(
    `load average at the end (other work on the machine): ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  console.log(`slow receiver deliveries meanwhile: median ${median(slowCounts)} (bounded by ${o.perEndpoint} in flight / ${SLOW_MS / 1000} s)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
