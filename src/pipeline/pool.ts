import { claimJob } from "../queue/claim-job.js";
import { onJobsAdded } from "../queue/jobs-added.js";
import { reclaimExpiredJobs } from "../queue/reclaim-expired.js";
import type { PipelineDeps } from "./deps.js";
import type { PipelineParts } from "./select.js";
import { holdSlot, Slots } from "./slots.js";
import { claimInput, newWorkerId, partsFor, processJob, type WorkerContext } from "./worker.js";

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

const IDLE_POLL_MIN_MS = 20;
const IDLE_POLL_MAX_MS = 250;

/**
 * `count` CPU slots (transcription, analysis) and `downloads` download slots.
 * A job holds a CPU slot from its claim, except while it downloads its
 * recording: it then waits in a download slot and its CPU slot claims another
 * job. So up to count + downloads jobs are in flight, and stalled recording
 * URLs can hold at most the download slots, never the CPU ones. Claims skip
 * companies already at --company-max-inflight, so one company's stalled URLs
 * cannot take all the download slots either.
 */
export function startWorkers(services: PipelineDeps, opts: { count: number; downloads?: number; parts?: PipelineParts; onJobDone?: () => void }): WorkerPool {
  const downloads = new Slots(opts.downloads ?? services.config.downloadConcurrency);
  const pool: PoolState = {
    services,
    parts: opts.parts ?? partsFor(services),
    leaseMs: services.config.jobLeaseSeconds * 1000,
    shutdown: new AbortController(),
    stopDownloads: new AbortController(),
    stopping: false,
    wakers: new Set(),
    cpu: new Slots(opts.count),
    downloads,
    onJobDone: opts.onJobDone,
  };
  const loopCount = opts.count > 0 ? opts.count + downloads.size : 0;
  const reclaimTimer = opts.count > 0 ? startReclaimer(services, pool.leaseMs) : undefined;
  const loops = Array.from({ length: loopCount }, (_, i) => workerLoop(pool, i));
  const wakeAll = () => {
    for (const w of [...pool.wakers]) w();
  };
  // Jobs this process commits wake idle workers at once (the idle poll still finds other processes' jobs).
  const unsubscribe = opts.count > 0 ? onJobsAdded(services.store.db, wakeAll) : undefined;
  let stopped: Promise<void> | undefined;
  return {
    size: opts.count,
    wake: wakeAll,
    stop(graceMs = 10_000) {
      stopped ??= (async () => {
        pool.stopping = true;
        // Downloads are not waited for: they may hang until their timeouts, and their jobs lose nothing by being handed back.
        pool.stopDownloads.abort();
        unsubscribe?.();
        if (reclaimTimer) clearInterval(reclaimTimer);
        wakeAll();
        const all = Promise.all(loops);
        let timer: NodeJS.Timeout | undefined;
        const late = await Promise.race([all.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs)))]);
        clearTimeout(timer);
        if (late) {
          // Running jobs notice the abort at their next checkpoint and release their lease.
          pool.shutdown.abort();
          await all;
        }
      })();
      return stopped;
    },
  };
}

/** What the worker loops of one pool share. */
interface PoolState {
  services: PipelineDeps;
  parts: PipelineParts;
  leaseMs: number;
  /** Aborted when the grace period is over: running jobs hand back their lease. */
  shutdown: AbortController;
  stopDownloads: AbortController;
  stopping: boolean;
  /** Idle loops' wake-ups: a new job or stop() ends their sleep early. */
  wakers: Set<() => void>;
  cpu: Slots;
  downloads: Slots;
  /** Called after each job this process finishes (submit --wait wakes on it instead of polling). */
  onJobDone?: () => void;
}

/** One reclaimer per process: jobs of dead workers go back to the queue when their lease ends. */
function startReclaimer(services: Pick<PipelineDeps, "store" | "clock" | "logger">, leaseMs: number): NodeJS.Timeout {
  const log = services.logger;
  const reclaim = () =>
    reclaimExpiredJobs(services.store.db, services.clock.now())
      .then((n) => n > 0 && log.warn("reclaimed jobs with expired leases", { count: n }))
      .catch((e) => log.warn("reclaim failed", { error: (e as Error).message }));
  const timer = setInterval(reclaim, Math.max(250, Math.min(5000, Math.floor(leaseMs / 4))));
  void reclaim();
  return timer;
}

function sleepUnlessWoken(pool: PoolState, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      pool.wakers.delete(done);
      resolve();
    };
    const t = setTimeout(done, ms);
    pool.wakers.add(done);
  });
}

async function workerLoop(pool: PoolState, n: number): Promise<void> {
  const { services, cpu, downloads } = pool;
  const log = services.logger;
  const base: WorkerContext = { services, parts: pool.parts, workerId: newWorkerId(n), leaseMs: pool.leaseMs, signal: pool.shutdown.signal };
  let idle = IDLE_POLL_MIN_MS;
  while (!pool.stopping) {
    try {
      await cpu.acquire(pool.shutdown.signal);
    } catch {
      return;
    }
    const hold = holdSlot(cpu);
    let pause = 0;
    try {
      if (pool.stopping) return;
      let job;
      try {
        job = await claimJob(services.store.db, claimInput(base, services.clock.now()));
      } catch (e) {
        log.warn("claim failed", { worker: base.workerId, error: (e as Error).message });
        pause = IDLE_POLL_MAX_MS;
        continue;
      }
      if (!job) {
        pause = idle;
        idle = Math.min(IDLE_POLL_MAX_MS, idle * 2);
        continue;
      }
      idle = IDLE_POLL_MIN_MS;
      const outcome = await processJob({ ...base, cpu: hold, downloads, stopDownloads: pool.stopDownloads.signal }, job);
      log.debug("job done", { ...outcome });
      pool.onJobDone?.();
    } finally {
      // Never sleep on a slot: a job back from its download may be waiting for it.
      hold.release();
      if (pause > 0) await sleepUnlessWoken(pool, pause);
    }
  }
}
