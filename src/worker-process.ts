import { sweepAudioTemp } from "./audio/store.js";
import type { Config } from "./config.js";
import { Dispatcher, type DispatcherOptions } from "./events/dispatcher.js";
import type { Logger } from "./logger.js";
import { startWorkers, type WorkerPool } from "./pipeline/pool.js";
import { openWhisperTranscriber } from "./pipeline/transcribers/whisper.js";
import { createServices, type Services } from "./services.js";
import type { Clock } from "./time.js";

export interface RunningWorkers {
  services: Services;
  workers: WorkerPool;
  dispatcher: Dispatcher;
  /** Graceful stop: no new claims, running jobs get the grace period, then the database closes. */
  stop(): Promise<void>;
}

/**
 * What `callreview worker` runs: pipeline workers and the webhook dispatcher,
 * no HTTP listener. Any number of these processes (and of `serve --workers 0`
 * API processes) share one PostgreSQL database; jobs and deliveries are
 * claimed with leases, so a worker that dies loses nothing but time.
 */
export async function startWorkerProcess(
  config: Config,
  opts: { logger?: Logger; clock?: Clock; dispatcher?: Partial<DispatcherOptions> } = {},
): Promise<RunningWorkers> {
  const services = await createServices(config, opts);
  try {
    // Live mode loads its models now: a missing or broken model stops the start, naming the file.
    if (services.pipeline === "live") openWhisperTranscriber(config, services.logger);
    // Downloads of a worker of this host that died mid-write (other hosts' files are left to them).
    const swept = await sweepAudioTemp(config.audioDir);
    if (swept > 0) services.logger.info("removed stale download temp files", { count: swept });
  } catch (e) {
    await services.close();
    throw e;
  }
  const workers = startWorkers(services, { count: config.workers });
  const dispatcher = new Dispatcher(services.store.db, services.clock, services.logger, opts.dispatcher);
  dispatcher.start();
  services.logger.info("workers started", { workers: config.workers, pipeline: services.pipeline, driver: services.store.driver });
  let stopping: Promise<void> | undefined;
  return {
    services,
    workers,
    dispatcher,
    stop() {
      stopping ??= (async () => {
        await workers.stop();
        await dispatcher.stop();
        await services.close();
        services.logger.info("stopped");
      })();
      return stopping;
    },
  };
}
