import { claimJob } from "../queue/claim-job.js";
import { reclaimExpiredJobs } from "../queue/reclaim-expired.js";
import type { Services } from "../services.js";
import type { PipelineParts } from "./select.js";
import { newWorkerId, partsFor, processJob, type WorkerContext } from "./worker.js";

export interface WorkerPool {
  readonly size: number;
  /** Claim now instead of waiting out the idle poll (this process just enqueued). */
  wake(): void;
  /**
   * Stop claiming; let running jobs finish for up to `graceMs`, then hand the
   * rest back (lease released) and resolve.
   */
  stop(graceMs?: number): Promise<void>;
}

const BUSY_POLL_MS = 0;
const IDLE_POLL_MIN_MS = 20;
const IDLE_POLL_MAX_MS = 250;

/** `count` workers in this process, each claiming one job at a time. */
export function startWorkers(services: Services, opts: { count: number; parts?: PipelineParts }): WorkerPool {
  const parts = opts.parts ?? partsFor(services);
  const leaseMs = services.config.jobLeaseSeconds * 1000;
  const log = services.logger;
  const shutdown = new AbortController();
  let stopping = false;
  const wakers = new Set<() => void>();

  // One reclaimer per process: jobs of dead workers go back to the queue when their lease ends.
  const reclaim = () =>
    reclaimExpiredJobs(services.store.db, services.clock.now())
      .then((n) => n > 0 && log.warn("reclaimed jobs with expired leases", { count: n }))
      .catch((e) => log.warn("reclaim failed", { error: (e as Error).message }));
  const reclaimTimer = opts.count > 0 ? setInterval(reclaim, Math.max(250, Math.min(5000, Math.floor(leaseMs / 4)))) : undefined;
  if (opts.count > 0) void reclaim();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        wakers.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      wakers.add(done);
    });

  async function loop(n: number): Promise<void> {
    const ctx: WorkerContext = { services, parts, workerId: newWorkerId(n), leaseMs, signal: shutdown.signal };
    let idle = IDLE_POLL_MIN_MS;
    while (!stopping) {
      let job;
      try {
        job = await claimJob(services.store.db, { workerId: ctx.workerId, leaseMs, now: services.clock.now() });
      } catch (e) {
        log.warn("claim failed", { worker: ctx.workerId, error: (e as Error).message });
        await sleep(IDLE_POLL_MAX_MS);
        continue;
      }
      if (!job) {
        await sleep(idle);
        idle = Math.min(IDLE_POLL_MAX_MS, idle * 2);
        continue;
      }
      idle = IDLE_POLL_MIN_MS;
      const outcome = await processJob(ctx, job);
      log.debug("job done", { ...outcome });
      if (BUSY_POLL_MS > 0) await sleep(BUSY_POLL_MS);
    }
  }

  const loops = Array.from({ length: opts.count }, (_, i) => loop(i));
  let stopped: Promise<void> | undefined;
  return {
    size: opts.count,
    wake() {
      for (const w of [...wakers]) w();
    },
    stop(graceMs = 10_000) {
      stopped ??= (async () => {
        stopping = true;
        if (reclaimTimer) clearInterval(reclaimTimer);
        for (const w of [...wakers]) w();
        const all = Promise.all(loops);
        let timer: NodeJS.Timeout | undefined;
        const late = await Promise.race([all.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs)))]);
        clearTimeout(timer);
        if (late) {
          // Running jobs notice the abort at their next checkpoint and release their lease.
          shutdown.abort();
          await all;
        }
      })();
      return stopped;
    },
  };
}
