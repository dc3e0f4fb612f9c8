import fs from "node:fs";
import path from "node:path";
import { findFfmpeg } from "../../src/audio/ffmpeg.js";
import { manifestEntry } from "../../src/models/manifest.js";
import { headerProblem } from "../../src/models/verify.js";
import { Option, type Command } from "commander";
import type { Config } from "../../src/config.js";
import { scanModels, selectTranscriptionModels } from "../../src/models/find.js";
import { chooseAnalyzer } from "../../src/pipeline/analyzers/factory.js";
import { checkOllama } from "../../src/pipeline/analyzers/ollama.js";
import { resolvePipelineMode } from "../../src/pipeline/mode.js";
import { isBun } from "../../src/runtime.js";
import { retentionStatus } from "../../src/lifecycle/retention/run-retention.js";
import { systemClock } from "../../src/time.js";
import { cpuFeatures } from "../../src/engines/cpu-features.js";
import { probeEngines } from "../../src/engines/status.js";
import { LATEST_SCHEMA } from "../../src/store/migrate.js";
import { ensureWritableDir, openStore } from "../../src/store/open.js";
import { VERSION } from "../../src/version.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";
import { printJson } from "../io.js";
import { nextSteps } from "../doctor-next-steps.js";

/** Which transcription and VAD model files `serve` would use, and whether each looks loadable (header and size). */
function transcriptionFindings(config: Config) {
  const models = selectTranscriptionModels(config);
  const problem = (file: string | null, kind: "whisper" | "vad") => {
    if (!file) return undefined;
    if (!fs.existsSync(file)) return "missing";
    const header = headerProblem(file, kind);
    if (header) return header;
    const expected = manifestEntry(path.basename(file))?.size_bytes;
    const size = fs.statSync(file).size;
    return expected && expected !== size ? `${size} bytes, manifest says ${expected}: truncated?` : undefined;
  };
  return {
    whisper_model: models.whisper,
    whisper_problem: problem(models.whisper, "whisper") ?? null,
    vad_model: models.vad,
    vad_problem: problem(models.vad, "vad") ?? null,
    ffmpeg: findFfmpeg(config.ffmpegPath) ?? null,
  };
}

export function doctorCommand(program: Command, ctx: CliContext): void {
  const doctor = program.command("doctor");
  addConfigOptions(doctor, ["analyzer", "llmModel", "ollamaUrl", "ollamaModel", "engineBuild"]);
  doctor
    .description("Check the data dir, database, models and the pipeline mode `serve` would use")
    .addOption(new Option("--pipeline <mode>", "pipeline mode to evaluate").choices(["auto", "placeholder", "live"]))
    .option("--json", "print the findings as JSON")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const report = await findings(configFrom(cmd, ctx));
      const next_steps = nextSteps(report);
      if (opts.json) printJson(ctx.io, { ...report, next_steps });
      else ctx.io.out([...describe(report), "", "Next steps:", ...next_steps.map((s) => `  - ${s}`)].join("\n"));
    });
}

/** Everything doctor looks at, as one JSON-ready object. */
async function findings(config: Config) {
  // Checked first, so a dir doctor cannot write is named the way an unwritable data dir is.
  ensureWritableDir(config.dataDir);
  ensureWritableDir(config.audioDir, "audio dir");
  const store = await openStore(config.dataDir, { databaseUrl: config.databaseUrl });
  try {
    const analyzer = await chooseAnalyzer(config);
    const ollama =
      config.ollamaModel && (config.analyzer === "ollama" || config.analyzer === "auto")
        ? { url: config.ollamaUrl, model: config.ollamaModel, ...(await checkOllama(config.ollamaUrl, config.ollamaModel)) }
        : null;
    return {
      version: VERSION,
      runtime: isBun ? "bun (compiled executable)" : `node ${process.version}`,
      data_dir: config.dataDir,
      audio_dir: config.audioDir,
      database: { file: store.file, driver: store.driver, schema_version: store.schemaVersion, latest_schema: LATEST_SCHEMA },
      models_dir: { path: config.modelsDir, exists: fs.existsSync(config.modelsDir), ...scanModels(config.modelsDir) },
      pipeline: { configured: config.pipeline, active: resolvePipelineMode(config.pipeline, config.modelsDir, config.whisperModel) },
      transcription: transcriptionFindings(config),
      cpu: cpuFeatures(),
      engines: probeEngines(config),
      analyzer: { ...analyzer, ollama },
      retention: await retentionStatus({ store, clock: systemClock }),
    };
  } finally {
    await store.close();
  }
}

type Findings = Awaited<ReturnType<typeof findings>>;

function describe(report: Findings): string[] {
  const m = report.models_dir;
  const analyzer = report.analyzer;
  const ollama = analyzer.ollama;
  return [
    `callreview ${report.version} on ${report.runtime}`,
    `data dir      ${report.data_dir} (writable)`,
    `audio dir     ${report.audio_dir} (writable)`,
    `database      ${report.database.file} schema ${report.database.schema_version} (${report.database.driver})`,
    `models dir    ${m.path}${m.exists ? "" : " (missing)"}`,
    `  whisper     ${m.whisper.length ? m.whisper.join(", ") : "none"}`,
    `  vad         ${m.vad.length ? m.vad.join(", ") : "none"}`,
    `  gguf        ${m.gguf.length ? m.gguf.join(", ") : "none"}`,
    `pipeline      ${report.pipeline.active} (configured ${report.pipeline.configured})`,
    `transcription ${report.transcription.whisper_model ?? "no whisper model"}${report.transcription.whisper_problem ? ` (${report.transcription.whisper_problem})` : ""}`,
    `  vad         ${report.transcription.vad_model ?? "no VAD model (no talk metrics, no silence trimming)"}${report.transcription.vad_problem ? ` (${report.transcription.vad_problem})` : ""}`,
    `  ffmpeg      ${report.transcription.ffmpeg ? `${report.transcription.ffmpeg.path} (${report.transcription.ffmpeg.source})` : "not found: OGG/Opus, M4A/MP4, WebM cannot be transcribed"}`,
    `cpu           ${
      Object.entries(report.cpu)
        .filter(([, on]) => on)
        .map(([f]) => f)
        .join(" ") || "no SIMD extensions detected"
    }`,
    ...report.engines.map(
      (e) =>
        `engine        ${e.engine}: ${e.build === null ? "PROBLEM" : `${e.build} build${e.simd.length ? ` (${e.simd.join(" ")})` : " (no SIMD)"}`}; ${e.reason}`,
    ),
    `analyzer      ${analyzer.active} (configured ${analyzer.configured}; ${analyzer.reason})`,
    ...(ollama ? [`  ollama      ${ollama.ok ? "ok" : "PROBLEM"}: ${ollama.detail}`] : []),
    `retention     ${report.retention.length ? "" : "no policy (everything is kept)"}`.trimEnd(),
    ...report.retention.map(
      (r) =>
        `  company ${r.company_id}  audio ${r.policy.audio_days ?? "-"} d (${r.due.audio} due), transcripts ${r.policy.transcripts_days ?? "-"} d (${r.due.transcripts} due), calls ${r.policy.calls_days ?? "-"} d (${r.due.calls} due)`,
    ),
  ];
}
