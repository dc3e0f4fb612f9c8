import fs from "node:fs";
import type { Command } from "commander";
import { databasePath } from "../../src/config.js";
import { scanModels } from "../../src/models/find.js";
import { chooseAnalyzer } from "../../src/pipeline/analyzers/factory.js";
import { checkOllama } from "../../src/pipeline/analyzers/ollama.js";
import { resolvePipelineMode } from "../../src/pipeline/mode.js";
import { isBun } from "../../src/runtime.js";
import { LATEST_SCHEMA } from "../../src/store/migrate.js";
import { openStore } from "../../src/store/open.js";
import { VERSION } from "../../src/version.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";
import { printJson } from "../io.js";

export function doctorCommand(program: Command, ctx: CliContext): void {
  const doctor = program.command("doctor");
  addConfigOptions(doctor, ["analyzer", "llmModel", "ollamaUrl", "ollamaModel"]);
  doctor
    .description("Check the data dir, database, models and the pipeline mode `serve` would use")
    .option("--pipeline <mode>", "pipeline mode to evaluate (auto | placeholder | live)")
    .option("--json", "print the findings as JSON")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const config = configFrom(cmd, ctx);
      const store = await openStore(config.dataDir);
      const analyzer = await chooseAnalyzer(config);
      const ollama =
        config.ollamaModel && (config.analyzer === "ollama" || config.analyzer === "auto")
          ? { url: config.ollamaUrl, model: config.ollamaModel, ...(await checkOllama(config.ollamaUrl, config.ollamaModel)) }
          : null;
      const report = {
        version: VERSION,
        runtime: isBun ? "bun (compiled executable)" : `node ${process.version}`,
        data_dir: config.dataDir,
        database: { file: databasePath(config), driver: store.driver, schema_version: store.schemaVersion, latest_schema: LATEST_SCHEMA },
        models_dir: { path: config.modelsDir, exists: fs.existsSync(config.modelsDir), ...scanModels(config.modelsDir) },
        pipeline: { configured: config.pipeline, active: resolvePipelineMode(config.pipeline, config.modelsDir) },
        analyzer: { ...analyzer, ollama },
      };
      await store.close();
      if (opts.json) {
        printJson(ctx.io, report);
        return;
      }
      const m = report.models_dir;
      ctx.io.out(
        [
          `callreview ${report.version} on ${report.runtime}`,
          `data dir      ${report.data_dir} (writable)`,
          `database      ${report.database.file} schema ${report.database.schema_version} (${report.database.driver})`,
          `models dir    ${m.path}${m.exists ? "" : " (missing)"}`,
          `  whisper     ${m.whisper.length ? m.whisper.join(", ") : "none"}`,
          `  vad         ${m.vad.length ? m.vad.join(", ") : "none"}`,
          `  gguf        ${m.gguf.length ? m.gguf.join(", ") : "none"}`,
          `pipeline      ${report.pipeline.active} (configured ${report.pipeline.configured})`,
          `analyzer      ${analyzer.active} (configured ${analyzer.configured}; ${analyzer.reason})`,
          ...(ollama ? [`  ollama      ${ollama.ok ? "ok" : "PROBLEM"}: ${ollama.detail}`] : []),
        ].join("\n"),
      );
    });
}
