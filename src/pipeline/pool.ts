import { claimJob } from "../queue/claim-job.js";
import { onJobsAdded } from "../queue/jobs-added.js";
import { reclaimExpiredJobs } from "../queue/reclaim-expired.js";
import type { Services } from "../services.js";
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
export function startWorkers(services: Services, opts: { count: number; downloads?: number; parts?: PipelineParts; onJobDone?: () => void }): WorkerPool {
  const parts = opts.parts ?? partsFor(services);
  const leaseMs = services.config.jobLeaseSeconds * 1000;
  const log = services.logger;
  const shutdown = new AbortController();
  const stopDownloads = new AbortController();
  let stopping = false;
  const wakers = new Set<() => void>();
  const cpu = new Slots(opts.count);
  const downloads = new Slots(opts.downloads ?? services.config.downloadConcurrency);
  const loopCount = opts.count > 0 ? opts.count + downloads.size : 0;

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
    const base: WorkerContext = { services, parts, workerId: newWorkerId(n), leaseMs, signal: shutdown.signal };
    let idle = IDLE_POLL_MIN_MS;
    while (!stopping) {
      try {
        await cpu.acquire(shutdown.signal);
      } catch {
        return;
      }
      const hold = holdSlot(cpu);
      let pause = 0;
      try {
        if (stopping) return;
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
        const outcome = await processJob({ ...base, cpu: hold, downloads, stopDownloads: stopDownloads.signal }, job);
        log.debug("job done", { ...outcome });
        opts.onJobDone?.();
      } finally {
        // Never sleep on a slot: a job back from its download may be waiting for it.
        hold.release();
        if (pause > 0) await sleep(pause);
      }
    }
  }

  const loops = Array.from({ length: loopCount }, (_, i) => loop(i));
  const wakeAll = () => {
    for (const w of [...wakers]) w();
  };
  // Jobs this process commits wake idle workers at once (the idle poll still finds other processes' jobs).
  const unsubscribe = opts.count > 0 ? onJobsAdded(services.store.db, wakeAll) : undefined;
  let stopped: Promise<void> | undefined;
  return {
    size: opts.count,
    wake: wakeAll,
    stop(graceMs = 10_000) {
      stopped ??= (async () => {
        stopping = true;
        // Downloads are not waited for: they may hang until their timeouts, and their jobs lose nothing by being handed back.
        stopDownloads.abort();
        unsubscribe?.();
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
