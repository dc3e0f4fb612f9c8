import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { Store } from "../store/open.js";
import type { Clock } from "../time.js";
import type { AnalyzerChoice } from "./analyzers/factory.js";
import type { DownloadPolicy } from "./download-policy.js";
import type { ActivePipeline } from "./mode.js";

/**
 * What the pipeline takes from the running process: the store, settings, time, logging, and the
 * choices made at start (pipeline, analyzer, download policy). No HTTP, no shutdown: `Services`
 * is one of these, and a test or a worker process can build one without the rest.
 */
export interface PipelineDeps {
  store: Store;
  config: Config;
  clock: Clock;
  logger: Logger;
  pipeline: ActivePipeline;
  /** The analyzer real transcripts get (pipeline/analyzers/factory.ts). */
  analyzer: AnalyzerChoice;
  /** Where recording_url downloads may connect; `serve` adds its own listener once it listens. */
  downloadPolicy: DownloadPolicy;
}
