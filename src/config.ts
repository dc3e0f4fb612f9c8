import { z } from "zod";
import path from "node:path";
import { AppError } from "./errors.js";
import { parseRuleList, type PolicyRule } from "./pipeline/download-policy.js";

/**
 * Flags > env (CALLREVIEW_*) > defaults, parsed once. This is the only module
 * that reads process.env, so every setting and its source is listed here.
 */
export const PIPELINE_MODES = ["auto", "placeholder", "live"] as const;
export type PipelineMode = (typeof PIPELINE_MODES)[number];
export const ANALYZER_KINDS = ["auto", "rules", "llama", "ollama"] as const;
export type AnalyzerKind = (typeof ANALYZER_KINDS)[number];
export const DB_SYNCHRONOUS = ["full", "normal"] as const;
export type DbSynchronous = (typeof DB_SYNCHRONOUS)[number];
export const ENGINE_BUILDS = ["auto", "simd", "generic"] as const;
export type EngineBuild = (typeof ENGINE_BUILDS)[number];

export interface Config {
  dataDir: string;
  /** postgres://… to keep the store in PostgreSQL (shared by many processes and machines); unset = SQLite in the data dir. */
  databaseUrl: string | undefined;
  /**
   * Stored audio: content-addressed files, written to its tmp/ and renamed into place. Several
   * processes and machines may share it (an NFS mount). Default <data dir>/audio.
   */
  audioDir: string;
  modelsDir: string;
  host: string;
  port: number;
  pipeline: PipelineMode;
  workers: number;
  /** Requests per window per API key; 0 turns rate limiting off. */
  rateLimit: number;
  rateLimitWindowSeconds: number;
  maxUploadMb: number;
  analyzer: AnalyzerKind;
  llmModel: string | undefined;
  ollamaUrl: string;
  ollamaModel: string | undefined;
  /** Time budget of one analysis (llama or ollama), seconds. */
  analysisTimeoutSeconds: number;
  /** Context window (tokens) of the llama and ollama analyzers. */
  llmContextSize: number;
  /** CPU threads per llama analysis; 0 = cores / workers (src/engines/thread-plan.ts). */
  llmThreads: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** Whisper ggml file (path, or name in the models dir); unset = the best one the models dir holds. */
  whisperModel: string | undefined;
  /** CPU threads per transcription; 0 = all cores. */
  whisperThreads: number;
  /** Which native engine build to load: auto (SIMD when the CPU has it), simd (required), generic (the prebuilt fallback). */
  engineBuild: EngineBuild;
  /** ffmpeg executable for OGG/Opus, M4A/MP4, WebM; unset = `ffmpeg` on PATH, then the npm package's binary. */
  ffmpegPath: string | undefined;
  /** How long a claimed job stays with its worker without a heartbeat before another may take it. */
  jobLeaseSeconds: number;
  downloadConnectTimeoutMs: number;
  /** recording_url: longest silence while the body streams. */
  downloadIdleTimeoutMs: number;
  downloadTimeoutMs: number;
  /** recording_url: only these destinations (CIDRs, host names); empty = any not denied. Ranges listed here also lift the built-in denies. */
  downloadAllow: PolicyRule[];
  /** recording_url: never these destinations, on top of the built-in denies. */
  downloadDeny: PolicyRule[];
  /** recording_url downloads running at once in `serve`, besides the transcription/analysis workers. */
  downloadConcurrency: number;
  /** Jobs of one company running at once across all workers of the data dir (0 = no cap). */
  companyMaxInflight: number;
  /** How long a write waits for another process's lock on the database before answering 503 database_busy. */
  dbBusyTimeoutMs: number;
  /** SQLite synchronous setting: full (a 201 survives a power loss) or normal (faster; survives a process crash only). */
  dbSynchronous: DbSynchronous;
  /** First retry delay of a failed job attempt; doubles per attempt. */
  retryBaseMs: number;
  /** How often `serve` applies retention policies, seconds; 0 = never (docs/lifecycle.md). */
  retentionIntervalSeconds: number;
}

type Parser<T> = (raw: string, name: string) => T;

interface Setting<K extends keyof Config> {
  key: K;
  env: string;
  flag: string;
  default: Config[K];
  parse: Parser<Config[K]>;
  doc: string;
}

const str: Parser<string> = (raw) => raw;
const optStr: Parser<string | undefined> = (raw) => (raw === "" ? undefined : raw);

/** A zod schema as a setting's parser: any failure is one invalid_config naming the flag or variable, the value and what was expected. */
function parser<T>(schema: z.ZodType<T>, expected: string): Parser<T> {
  return (raw, name) => {
    const r = schema.safeParse(raw);
    if (!r.success) throw new AppError("invalid_config", `invalid value for ${name}: "${raw}" (expected ${expected})`);
    return r.data;
  };
}

function int(min: number, max: number): Parser<number> {
  const schema = z
    .string()
    .trim()
    .regex(/^-?\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max).refine(Number.isSafeInteger));
  return parser(schema, `an integer from ${min} to ${max}`);
}

function oneOf<T extends string>(values: readonly [T, ...T[]]): Parser<T> {
  return parser(z.enum(values as [T, ...T[]]) as unknown as z.ZodType<T>, `one of ${values.join(", ")}`);
}

/** An http(s) URL, without trailing slashes. */
const url = parser(
  z.url({ protocol: /^https?$/ }).transform((raw) => raw.replace(/\/+$/, "")),
  "an http(s) URL",
);

function def<K extends keyof Config>(s: Setting<K>): Setting<K> {
  return s;
}

export const SETTINGS = [
  def({
    key: "dataDir",
    flag: "--data-dir",
    env: "CALLREVIEW_DATA_DIR",
    default: "./data",
    parse: str,
    doc: "Directory holding callreview.db (and stored audio unless --audio-dir says otherwise).",
  }),
  def({
    key: "databaseUrl",
    flag: "--database-url",
    env: "CALLREVIEW_DATABASE_URL",
    default: undefined,
    parse: optStr,
    doc: "postgres://user:password@host:port/db: keep the store in PostgreSQL instead of the data dir's SQLite file.",
  }),
  def({
    key: "audioDir",
    flag: "--audio-dir",
    env: "CALLREVIEW_AUDIO_DIR",
    // Empty means "derived from the data dir" (loadConfig fills it in).
    default: "",
    parse: str,
    doc: "Directory holding stored audio, shared by every process of one installation (default <data dir>/audio).",
  }),
  def({
    key: "modelsDir",
    flag: "--models-dir",
    env: "CALLREVIEW_MODELS_DIR",
    default: "./models",
    parse: str,
    doc: "Directory holding whisper / VAD / GGUF model files.",
  }),
  def({ key: "host", flag: "--host", env: "CALLREVIEW_HOST", default: "127.0.0.1", parse: str, doc: "Address the HTTP listener binds." }),
  def({ key: "port", flag: "--port", env: "CALLREVIEW_PORT", default: 8080, parse: int(0, 65535), doc: "HTTP port (0 picks a free port)." }),
  def({ key: "pipeline", flag: "--pipeline", env: "CALLREVIEW_PIPELINE", default: "auto", parse: oneOf(PIPELINE_MODES), doc: "auto | placeholder | live." }),
  def({ key: "workers", flag: "--workers", env: "CALLREVIEW_WORKERS", default: 2, parse: int(0, 64), doc: "Pipeline workers inside `serve` (0 = API only)." }),
  def({
    key: "rateLimit",
    flag: "--rate-limit",
    env: "CALLREVIEW_RATE_LIMIT",
    default: 120,
    parse: int(0, 1_000_000),
    doc: "Requests per window per API key (0 = off).",
  }),
  def({
    key: "rateLimitWindowSeconds",
    flag: "--rate-limit-window",
    env: "CALLREVIEW_RATE_LIMIT_WINDOW",
    default: 60,
    parse: int(1, 86_400),
    doc: "Rate-limit window in seconds.",
  }),
  def({
    key: "maxUploadMb",
    flag: "--max-upload-mb",
    env: "CALLREVIEW_MAX_UPLOAD_MB",
    default: 200,
    parse: int(1, 10_240),
    doc: "Largest accepted audio file (uploads and downloads), MiB.",
  }),
  def({
    key: "analyzer",
    flag: "--analyzer",
    env: "CALLREVIEW_ANALYZER",
    default: "auto",
    parse: oneOf(ANALYZER_KINDS),
    doc: "auto | rules | llama | ollama.",
  }),
  def({
    key: "llmModel",
    flag: "--llm-model",
    env: "CALLREVIEW_LLM_MODEL",
    default: undefined,
    parse: optStr,
    doc: "GGUF file (path or name in the models dir) for the llama analyzer.",
  }),
  def({
    key: "ollamaUrl",
    flag: "--ollama-url",
    env: "CALLREVIEW_OLLAMA_URL",
    default: "http://127.0.0.1:11434",
    parse: url,
    doc: "Ollama server for the ollama analyzer.",
  }),
  def({ key: "ollamaModel", flag: "--ollama-model", env: "CALLREVIEW_OLLAMA_MODEL", default: undefined, parse: optStr, doc: "Ollama model name." }),
  def({
    key: "analysisTimeoutSeconds",
    flag: "--analysis-timeout",
    env: "CALLREVIEW_ANALYSIS_TIMEOUT",
    default: 300,
    parse: int(1, 86_400),
    doc: "Time budget of one LLM analysis, seconds.",
  }),
  def({
    key: "llmContextSize",
    flag: "--llm-context",
    env: "CALLREVIEW_LLM_CONTEXT",
    default: 4096,
    parse: int(512, 131_072),
    doc: "Context window (tokens) for the llama and ollama analyzers.",
  }),
  def({
    key: "llmThreads",
    flag: "--llm-threads",
    env: "CALLREVIEW_LLM_THREADS",
    default: 0,
    parse: int(0, 256),
    doc: "CPU threads per llama analysis (0 = cores / workers, so that workers x threads <= cores).",
  }),
  def({
    key: "logLevel",
    flag: "--log-level",
    env: "CALLREVIEW_LOG_LEVEL",
    default: "info",
    parse: oneOf(["debug", "info", "warn", "error", "silent"] as const),
    doc: "debug | info | warn | error | silent.",
  }),
  def({
    key: "whisperModel",
    flag: "--whisper-model",
    env: "CALLREVIEW_WHISPER_MODEL",
    default: undefined,
    parse: optStr,
    doc: "Whisper ggml model (path or file name in the models dir); default: the best one installed.",
  }),
  def({
    key: "whisperThreads",
    flag: "--whisper-threads",
    env: "CALLREVIEW_WHISPER_THREADS",
    default: 0,
    parse: int(0, 256),
    doc: "CPU threads per transcription (0 = all cores).",
  }),
  def({
    key: "engineBuild",
    flag: "--engine-build",
    env: "CALLREVIEW_ENGINE_BUILD",
    default: "auto",
    parse: oneOf(ENGINE_BUILDS),
    doc: "auto | simd | generic: native engine builds (whisper.cpp and llama.cpp; auto = the SIMD build when the CPU supports it and it was built).",
  }),
  def({
    key: "ffmpegPath",
    flag: "--ffmpeg",
    env: "CALLREVIEW_FFMPEG",
    default: undefined,
    parse: optStr,
    doc: "ffmpeg executable for OGG/Opus, M4A/MP4, WebM (default: ffmpeg on PATH, then the bundled npm binary).",
  }),
  def({
    key: "jobLeaseSeconds",
    flag: "--job-lease-seconds",
    env: "CALLREVIEW_JOB_LEASE_SECONDS",
    default: 60,
    parse: int(1, 86_400),
    doc: "Seconds a worker holds a job without a heartbeat before another worker may take it over.",
  }),
  def({
    key: "downloadConnectTimeoutMs",
    flag: "--download-connect-timeout-ms",
    env: "CALLREVIEW_DOWNLOAD_CONNECT_TIMEOUT_MS",
    default: 10_000,
    parse: int(1, 600_000),
    doc: "recording_url: time allowed until response headers arrive, ms.",
  }),
  def({
    key: "downloadAllow",
    flag: "--download-allow",
    env: "CALLREVIEW_DOWNLOAD_ALLOW",
    default: [],
    parse: parseRuleList,
    doc: "recording_url: fetch only from these CIDRs / host names (comma-separated); ranges listed also lift the built-in denies.",
  }),
  def({
    key: "downloadDeny",
    flag: "--download-deny",
    env: "CALLREVIEW_DOWNLOAD_DENY",
    default: [],
    parse: parseRuleList,
    doc: "recording_url: never fetch from these CIDRs / host names (comma-separated), on top of the built-in denies.",
  }),
  def({
    key: "downloadIdleTimeoutMs",
    flag: "--download-idle-timeout-ms",
    env: "CALLREVIEW_DOWNLOAD_IDLE_TIMEOUT_MS",
    default: 20_000,
    parse: int(1, 3_600_000),
    doc: "recording_url: longest wait for the next bytes of the body, ms (a stalled server fails the attempt, a slow but steady one does not).",
  }),
  def({
    key: "downloadTimeoutMs",
    flag: "--download-timeout-ms",
    env: "CALLREVIEW_DOWNLOAD_TIMEOUT_MS",
    default: 600_000,
    parse: int(1, 86_400_000),
    doc: "recording_url: ceiling for the whole download, ms (stalls are caught earlier by the idle and connect timeouts).",
  }),
  def({
    key: "downloadConcurrency",
    flag: "--download-concurrency",
    env: "CALLREVIEW_DOWNLOAD_CONCURRENCY",
    default: 4,
    parse: int(1, 256),
    doc: "recording_url downloads at once in `serve`; they do not hold a worker while they wait on the network.",
  }),
  def({
    key: "companyMaxInflight",
    flag: "--company-max-inflight",
    env: "CALLREVIEW_COMPANY_MAX_INFLIGHT",
    default: 2,
    parse: int(0, 1024),
    doc: "Jobs of one company running at once, across all processes on the data dir (0 = no cap).",
  }),
  def({
    key: "dbBusyTimeoutMs",
    flag: "--db-busy-timeout-ms",
    env: "CALLREVIEW_DB_BUSY_TIMEOUT_MS",
    default: 5_000,
    parse: int(0, 600_000),
    doc: "How long a write waits for another process's database lock before failing with 503 database_busy, ms.",
  }),
  def({
    key: "dbSynchronous",
    flag: "--db-synchronous",
    env: "CALLREVIEW_DB_SYNCHRONOUS",
    default: "full",
    parse: oneOf(DB_SYNCHRONOUS),
    doc: "full (an answered 201 survives a power loss) | normal (survives a process crash only; faster).",
  }),
  def({
    key: "retentionIntervalSeconds",
    flag: "--retention-interval",
    env: "CALLREVIEW_RETENTION_INTERVAL",
    default: 600,
    parse: int(0, 86_400),
    doc: "Seconds between retention sweeps inside serve (0 = off).",
  }),
  def({
    key: "retryBaseMs",
    flag: "--retry-base-ms",
    env: "CALLREVIEW_RETRY_BASE_MS",
    default: 5_000,
    parse: int(0, 3_600_000),
    doc: "First retry delay of a failed pipeline attempt, ms (doubles per attempt, capped at 10 min).",
  }),
] as const;

/** Flag values as commander hands them over (camelCase keys of Config). */
export type ConfigFlags = Partial<Record<keyof Config, string | number | undefined>>;

export function loadConfig(flags: ConfigFlags = {}, env: Record<string, string | undefined> = process.env): Config {
  const out: Record<string, unknown> = {};
  for (const s of SETTINGS) {
    const flagValue = flags[s.key];
    const envValue = env[s.env];
    if (flagValue !== undefined && flagValue !== null) {
      out[s.key] = (s.parse as Parser<unknown>)(String(flagValue), s.flag);
    } else if (envValue !== undefined && envValue !== "") {
      out[s.key] = (s.parse as Parser<unknown>)(envValue, s.env);
    } else {
      out[s.key] = s.default;
    }
  }
  const cfg = out as unknown as Config;
  cfg.dataDir = path.resolve(cfg.dataDir);
  cfg.audioDir = path.resolve(cfg.audioDir || defaultAudioDir(cfg.dataDir));
  cfg.modelsDir = path.resolve(cfg.modelsDir);
  return cfg;
}

/** Where audio lives when no --audio-dir is given. */
export function defaultAudioDir(dataDir: string): string {
  return path.join(dataDir, "audio");
}

export function databasePath(cfg: Pick<Config, "dataDir">): string {
  return path.join(cfg.dataDir, "callreview.db");
}
