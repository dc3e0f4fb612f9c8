import type { Config } from "../src/config.js";

/**
 * The config flags shared by the commands that run the pipeline (`serve`,
 * `worker`, `submit`), in groups, so a new setting is added once for all of them.
 */
const ANALYSIS: (keyof Config)[] = ["analyzer", "llmModel", "ollamaUrl", "ollamaModel", "analysisTimeoutSeconds", "llmContextSize", "llmThreads"];
const QUEUE: (keyof Config)[] = ["jobLeaseSeconds", "retryBaseMs", "companyMaxInflight"];
const DOWNLOADS: (keyof Config)[] = ["downloadConnectTimeoutMs", "downloadIdleTimeoutMs", "downloadTimeoutMs", "downloadConcurrency"];
const DATABASE: (keyof Config)[] = ["dbBusyTimeoutMs", "dbSynchronous"];
const ENGINES: (keyof Config)[] = ["whisperModel", "whisperThreads", "engineBuild", "ffmpegPath"];

/** Everything a pipeline worker reads. */
export const PIPELINE_SETTINGS: (keyof Config)[] = ["pipeline", "workers", ...ANALYSIS, ...QUEUE, ...DOWNLOADS, ...DATABASE, ...ENGINES];

/** A long-running process (serve, worker) also logs and fetches URLs under the egress policy. */
export const PROCESS_SETTINGS: (keyof Config)[] = [...PIPELINE_SETTINGS, "logLevel", "downloadAllow", "downloadDeny"];
