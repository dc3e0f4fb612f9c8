import type { Config } from "./config.js";
import { Dispatcher, type DispatcherOptions } from "./events/dispatcher.js";
import { removeActiveTemp, sweepAudioTemp } from "./audio/store.js";
import { createApp } from "./http/app.js";
import type { Logger } from "./logger.js";
import { listen, type Listener } from "./server.js";
import { createServices, type Services } from "./services.js";
import { startWorkers, type WorkerPool } from "./pipeline/pool.js";
import { RetentionSweeper } from "./lifecycle/retention/sweeper.js";
import { openWhisperTranscriber } from "./pipeline/transcribers/whisper.js";
import type { Clock } from "./time.js";

export interface RunningService {
  services: Services;
  listener: Listener;
  workers: WorkerPool;
  url: string;
  /** Outbound webhooks: started after the listener, stopped before the database closes. */
  dispatcher: Dispatcher;
  /** Graceful stop: no new requests, in-flight ones finish, background work stops, database closed. */
  stop(): Promise<void>;
}

/** Everything `callreview serve` runs in one process. */
export async function startService(
  config: Config,
  opts: { logger?: Logger; clock?: Clock; dispatcher?: Partial<DispatcherOptions> } = {},
): Promise<RunningService> {
  const services = await createServices(config, opts);
  let listener: Listener;
  try {
    // Live mode loads its models now: a missing or broken model stops the start, naming the file.
    if (services.pipeline === "live") openWhisperTranscriber(config, services.logger);
    // Partial uploads of a process that died mid-write; nothing of ours is in flight yet.
    const swept = await sweepAudioTemp(config.audioDir);
    if (swept > 0) services.logger.info("removed stale upload temp files", { count: swept });
    const app = createApp(services);
    // Uploads are capped while streaming (422 invalid_file) and the rest of a refused body is drained (up to 64 MiB),
    // so the socket-level cap sits above both: a client sending too much reads the 422 instead of a reset.
    listener = await listen(app.fetch, { host: config.host, port: config.port, maxBodyBytes: (config.maxUploadMb + 65) * 1024 * 1024 });
  } catch (e) {
    await services.close();
    throw e;
  }
  services.downloadPolicy.denyListener(config.host, listener.port);
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${listener.port}`;
  services.logger.info("listening", { url, pipeline: services.pipeline, data_dir: config.dataDir, audio_dir: config.audioDir, driver: services.store.driver });
  const workers = startWorkers(services, { count: config.workers });
  const dispatcher = new Dispatcher(services.store.db, services.clock, services.logger, opts.dispatcher);
  dispatcher.start();
  const retention = new RetentionSweeper(services, config.retentionIntervalSeconds * 1000);
  retention.start();
  let stopping: Promise<void> | undefined;
  return {
    services,
    listener,
    workers,
    url,
    dispatcher,
    stop() {
      stopping ??= (async () => {
        await listener.close();
        // A client that stalled mid-upload had its connection closed; its handler may never get to clean up.
        await removeActiveTemp(config.audioDir);
        // Workers stop claiming; running jobs get a bounded time to finish, then are handed back.
        await workers.stop();
        await dispatcher.stop();
        await retention.stop();
        await services.close();
        services.logger.info("stopped");
      })();
      return stopping;
    },
  };
}
