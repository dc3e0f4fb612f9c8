import type { Command } from "commander";
import { analyzerFor, chooseAnalyzer } from "../../src/pipeline/analyzers/factory.js";
import { AppError } from "../../src/errors.js";
import { StageError } from "../../src/pipeline/ports.js";
import { getCompany, type Company } from "../../src/store/companies.js";
import type { CallRow } from "../../src/store/schema.js";
import { addConfigOptions, configFrom, parseId, withServices, type CliContext } from "../context.js";
import { printJson } from "../io.js";
import { readTranscriptFile } from "../transcript-file.js";

/**
 * `callreview analyze <transcript>`: runs the configured analyzer on a
 * transcript file and prints the report, without storing anything. For trying
 * trackers and models before they meet real calls.
 */
export function analyzeCommand(program: Command, ctx: CliContext): void {
  const cmd = program
    .command("analyze <transcript>")
    .description("Analyse a transcript file (.vtt, .srt, .json) with the configured analyzer and print the report; stores nothing")
    .option("--company <id>", "use this company's trackers and low-score threshold")
    .option("--rep-speaker <name>", "the speaker who is the rep (others are customers)")
    .option("--json", "print {analyzer, report} as JSON (analyze always does; accepted like everywhere else)");
  addConfigOptions(cmd, ["analyzer", "llmModel", "ollamaUrl", "ollamaModel", "analysisTimeoutSeconds", "llmContextSize", "llmThreads", "engineBuild"]);
  cmd.action(async (file: string, opts: { company?: string; repSpeaker?: string }, c: Command) => {
    const transcript = readTranscriptFile(file, opts.repSpeaker);
    const config = configFrom(c, ctx);
    const choice = await chooseAnalyzer(config);
    const company: Company = opts.company
      ? await withServices(c, ctx, async (s) => {
          const found = await getCompany(s.store.db, parseId(opts.company!, "company id"));
          if (!found) throw new AppError("not_found", `company ${opts.company} not found`);
          return found;
        })
      : { id: 0, name: "(none)", low_score_threshold: 60, settings: {}, created_at: "", updated_at: "" };
    const call = { id: 0, company_id: company.id, metadata: "{}" } as unknown as CallRow;
    try {
      const report = await analyzerFor({ config }, choice).analyze({ call, company, transcript });
      // JSON with or without --json: scripts have relied on that since the command exists.
      printJson(ctx.io, { analyzer: choice.active, report });
    } catch (e) {
      if (e instanceof StageError) throw new Error(`${choice.active} analysis failed: ${e.message}`);
      throw e;
    }
  });
}
