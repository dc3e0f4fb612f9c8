import type { Config } from "./config.js";
import { createLogger, type Logger } from "./logger.js";
import type { PipelineDeps } from "./pipeline/deps.js";
import { DownloadPolicy } from "./pipeline/download-policy.js";
import { chooseAnalyzer } from "./pipeline/analyzers/factory.js";
import { resolvePipelineMode } from "./pipeline/mode.js";
import { setQueuePipeline } from "./queue/job-pipeline.js";
import { ensureWritableDir, openStore } from "./store/open.js";
import { systemClock, type Clock } from "./time.js";

/**
 * Wiring: everything a command or the server needs, built once from the config.
 * Tests build the same object on a temp data dir.
 */
export interface Services extends PipelineDeps {
  close(): Promise<void>;
}

export async function createServices(config: Config, opts: { logger?: Logger; clock?: Clock } = {}): Promise<Services> {
  // Checked before the store opens (the data dir first, as the store would): a process that cannot write audio must not start taking calls.
  ensureWritableDir(config.dataDir);
  ensureWritableDir(config.audioDir, "audio dir");
  const store = await openStore(config.dataDir, { databaseUrl: config.databaseUrl, busyTimeoutMs: config.dbBusyTimeoutMs, synchronous: config.dbSynchronous });
  const logger = opts.logger ?? createLogger(config.logLevel);
  const pipeline = resolvePipelineMode(config.pipeline, config.modelsDir, config.whisperModel);
  // Jobs this process queues ask for its pipeline (queue/job-pipeline.ts).
  setQueuePipeline(store.db, pipeline);
  return {
    config,
    store,
    logger,
    clock: opts.clock ?? systemClock,
    pipeline,
    analyzer: await chooseAnalyzer(config),
    downloadPolicy: new DownloadPolicy(config.downloadAllow, config.downloadDeny),
    close: () => store.close(),
  };
}
