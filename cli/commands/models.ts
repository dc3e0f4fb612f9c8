import type { Command } from "commander";
import { MANIFEST } from "../../src/models/manifest.js";
import { checkModelsDir, type ModelCheck } from "../../src/models/verify.js";
import { configFrom, type CliContext } from "../context.js";
import { printJson } from "../io.js";

const MiB = 1024 * 1024;

function describe(c: ModelCheck): string {
  const size = c.size_bytes >= MiB ? `${(c.size_bytes / MiB).toFixed(1)} MiB` : `${c.size_bytes} B`;
  return `${c.status.toUpperCase().padEnd(11)} ${c.kind.padEnd(7)} ${size.padStart(10)}  ${c.name}${c.test_only ? " [test only]" : ""}  ${c.detail}`;
}

export function modelsCommand(program: Command, ctx: CliContext): void {
  const models = program.command("models").description("Model files in the models dir (--models-dir) checked against the manifest");

  models
    .command("list")
    .description("List model files: kind, size, checksum match; and the recommended files not installed")
    .option("--json", "print as JSON")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const config = configFrom(cmd, ctx);
      const checks = await checkModelsDir(config.modelsDir);
      const installed = new Set(checks.map((c) => c.name));
      const missing = MANIFEST.filter((m) => !m.test_only && !installed.has(m.file));
      if (opts.json) {
        printJson(ctx.io, {
          models_dir: config.modelsDir,
          files: checks,
          not_installed: missing.map((m) => ({ file: m.file, kind: m.kind, approx_size: m.approx_size, source: m.source })),
        });
        return;
      }
      const lines = [`models dir ${config.modelsDir}`];
      lines.push(...(checks.length ? checks.map(describe) : ["  (no model files)"]));
      if (missing.length) {
        lines.push("not installed (see models/README.md for how to carry them in):");
        lines.push(...missing.map((m) => `  ${m.kind.padEnd(7)} ${m.approx_size.padStart(9)}  ${m.file}  ${m.role}`));
      }
      ctx.io.out(lines.join("\n"));
    });

  models
    .command("verify")
    .description("Check every model file against the manifest; exit 1 naming each bad file")
    .option("--json", "print as JSON")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const config = configFrom(cmd, ctx);
      const checks = await checkModelsDir(config.modelsDir);
      const bad = checks.filter((c) => c.status === "bad");
      if (opts.json) printJson(ctx.io, { models_dir: config.modelsDir, ok: bad.length === 0, files: checks });
      else ctx.io.out([`models dir ${config.modelsDir}`, ...(checks.length ? checks.map(describe) : ["  (no model files)"])].join("\n"));
      if (bad.length) throw new Error(`bad model file${bad.length > 1 ? "s" : ""}: ${bad.map((b) => `${b.file} (${b.detail})`).join("; ")}`);
    });
}
