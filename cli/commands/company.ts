import fs from "node:fs";
import { Option, type Command } from "commander";
import { parseTrackerFile, TrackerConfigError } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { AppError } from "../../src/errors.js";
import { audit, CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { parseLifecycleOptions, type LifecycleOptions } from "../../src/lifecycle/company-options.js";
import { createCompany, getCompany, listCompanies, updateCompany, type Company, type CompanySettings } from "../../src/store/companies.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { printJson } from "../io.js";
import { printTable } from "../table.js";
import { UsageError } from "../exit-codes.js";

function parseThreshold(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 100) throw new UsageError(`invalid --low-score-threshold "${v}" (expected an integer from 0 to 100)`);
  return Number(v);
}

function parseWindow(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 3600) throw new UsageError(`invalid --disclosure-window "${v}" (expected whole seconds from 1 to 3600)`);
  return Number(v);
}

function line(c: Company): string {
  return `${c.id}\t${c.name}\tlow-score-threshold=${c.low_score_threshold}\tcreated ${c.created_at}`;
}

export function companyCommand(program: Command, ctx: CliContext): void {
  const company = program.command("company").description("Manage companies (tenants)");
  companyCreateCommand(company, ctx);
  companyListCommand(company, ctx);
  companyUpdateCommand(company, ctx);
}

function companyCreateCommand(company: Command, ctx: CliContext): void {
  company
    .command("create <name>")
    .description("Create a company")
    .option("--low-score-threshold <n>", "overall score below which call.low_score_detected fires (default 60)")
    .option("--json", "print the company as JSON")
    .action(async (name: string, opts: { lowScoreThreshold?: string; json?: boolean }, cmd: Command) => {
      if (!name.trim()) throw new UsageError("company name must not be empty");
      const threshold = opts.lowScoreThreshold !== undefined ? parseThreshold(opts.lowScoreThreshold) : undefined;
      const created = await withServices(cmd, ctx, (s) => createCompany(s.store.db, { name: name.trim(), low_score_threshold: threshold }));
      if (opts.json) printJson(ctx.io, created);
      else ctx.io.out(`Created company ${created.id} "${created.name}" (low-score threshold ${created.low_score_threshold})`);
    });
}

function companyListCommand(company: Command, ctx: CliContext): void {
  company
    .command("list")
    .description("List companies")
    .option("--json", "print the companies as JSON")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const all = await withServices(cmd, ctx, (s) => listCompanies(s.store.db));
      if (opts.json) printJson(ctx.io, all);
      else if (all.length === 0) ctx.io.out("No companies yet. Create one with: callreview company create <name>");
      else
        printTable(
          ctx.io,
          ["id", "name", "low_score_threshold", "created_at"],
          all.map((c) => [c.id, c.name, c.low_score_threshold, c.created_at]),
        );
    });
}

function companyUpdateCommand(company: Command, ctx: CliContext): void {
  company
    .command("update <id>")
    .description("Change a company's name or settings")
    .option("--name <name>", "new name")
    .option("--low-score-threshold <n>", "overall score below which call.low_score_detected fires")
    .addOption(new Option("--rep-channel <side>", "stereo channel that carries the rep").choices(["left", "right"]))
    .option("--trackers <file>", "JSON file of trackers (examples, patterns) added to or replacing the built-in ones (docs/analyzers.md)")
    .option("--disclosure-window <seconds>", "the rep must disclose the recording within this many seconds of the start (default 30)")
    .option("--clear-trackers", "go back to the built-in trackers")
    .option("--redact <kinds>", "redact from transcripts before storing: none or card,ssn,account,email,phone (default card; docs/lifecycle.md)")
    .option("--redact-audio <on|off>", "also silence, in stored audio, the transcript segments that held redacted numbers")
    .option("--retain-audio-days <n>", "delete audio files older than n days (0/off: keep)")
    .option("--retain-transcripts-days <n>", "delete transcripts older than n days; call and report stay (0/off: keep)")
    .option("--retain-calls-days <n>", "erase whole calls older than n days (0/off: keep)")
    .option("--json", "print the company as JSON")
    .action(
      async (
        idArg: string,
        opts: {
          name?: string;
          lowScoreThreshold?: string;
          repChannel?: string;
          trackers?: string;
          clearTrackers?: boolean;
          disclosureWindow?: string;
          json?: boolean;
        } & LifecycleOptions,
        cmd: Command,
      ) => {
        const id = parseId(idArg, "company id");
        const threshold = opts.lowScoreThreshold !== undefined ? parseThreshold(opts.lowScoreThreshold) : undefined;
        if (opts.name !== undefined && !opts.name.trim()) throw new UsageError("company name must not be empty");
        const trackers = opts.trackers !== undefined ? readTrackers(opts.trackers) : undefined;
        const window = opts.disclosureWindow !== undefined ? parseWindow(opts.disclosureWindow) : undefined;
        const lifecycle = parseLifecycleOptions(opts);
        const updated = await withServices(cmd, ctx, async (s) => {
          const current = await getCompany(s.store.db, id);
          if (!current) throw new AppError("not_found", `company ${id} not found`);
          let settings: CompanySettings | undefined = opts.repChannel ? { ...current.settings, rep_channel: opts.repChannel as "left" | "right" } : undefined;
          if (trackers) settings = { ...(settings ?? current.settings), trackers };
          if (window !== undefined) settings = { ...(settings ?? current.settings), disclosure_window_seconds: window };
          if (opts.clearTrackers) {
            const { trackers: _dropped, ...rest } = settings ?? current.settings;
            settings = rest;
          }
          const withLifecycle = lifecycle(settings ?? current.settings);
          if (withLifecycle) {
            settings = withLifecycle;
            await audit(
              s.store.db,
              CLI_ACTOR,
              "company.update",
              {
                companyId: id,
                detail: {
                  redact: (settings.redact as string[] | undefined) ?? null,
                  redact_audio: settings.redact_audio === true,
                  retention: JSON.stringify(settings.retention ?? null),
                },
              },
              s.clock.now(),
            );
          }
          return (await updateCompany(s.store.db, id, { name: opts.name?.trim(), low_score_threshold: threshold, settings }))!;
        });
        if (opts.json) printJson(ctx.io, updated);
        else ctx.io.out(`Updated company ${updated.id}: ${line(updated)}`);
      },
    );
}

/** Reads and validates a tracker file; every problem names its line, all on one stderr line. */
function readTrackers(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`cannot read --trackers file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return parseTrackerFile(text, file);
  } catch (e) {
    if (e instanceof TrackerConfigError) throw new UsageError(`invalid --trackers file: ${e.problems.join("; ")}`);
    throw e;
  }
}
