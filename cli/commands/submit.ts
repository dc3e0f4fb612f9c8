import type { Command } from "commander";
import { storeAudioFile } from "../../src/audio/store.js";
import { callPath, toCallResource } from "../../src/calls/resource.js";
import { callProgress, isFinished } from "../../src/calls/wait.js";
import { AppError } from "../../src/errors.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { startWorkers } from "../../src/pipeline/pool.js";
import { openWhisperTranscriber } from "../../src/pipeline/transcribers/whisper.js";
import type { Services } from "../../src/services.js";
import { getCompany } from "../../src/store/companies.js";
import { addConfigOptions, configFrom, parseId, type CliContext } from "../context.js";
import { PIPELINE_SETTINGS } from "../setting-groups.js";
import { printJson, spinLine, type Io } from "../io.js";
import { createServices } from "../../src/services.js";
import { readTranscriptFile } from "../../src/transcripts/import-call-transcript.js";
import { UsageError } from "../exit-codes.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * `submit <file...>`: each file goes through the same store as an upload
 * (streamed, size-capped, sniffed; same errors), then acceptCall with intake
 * "cli". `--wait` follows each call to `complete` or `failed`. It runs pipeline
 * workers in this process while it waits, so it finishes with or without a
 * `serve` running on the same data dir (leases keep the two from ever working
 * the same job).
 */
export function submitCommand(program: Command, ctx: CliContext): void {
  const cmd = program
    .command("submit [file...]")
    .description("Submit audio files as calls (stored exactly as an upload would be); --transcript brings the words instead of (or with) the audio")
    .requiredOption("--company <id>", "company the calls belong to")
    .option("--rep-name <name>", "sales rep name")
    .option("--customer-name <name>", "customer name")
    .option(
      "--transcript <file>",
      "a .vtt, .srt or .json transcript for the call: transcription is skipped, a real analyzer reads it (one call: no audio file or one)",
    )
    .option("--rep-speaker <name>", "with --transcript: the speaker who is the rep (others are customers)")
    .option("--wait", "wait until every call is complete or failed (runs workers in this process)")
    .option("--json", "print the calls as JSON: one object for one file, an array for several");
  addConfigOptions(cmd, [...PIPELINE_SETTINGS, "maxUploadMb"]);
  cmd.action(async (files: string[], opts: SubmitOptions, command: Command) => {
    const companyId = parseId(opts.company, "--company");
    if (files.length === 0 && !opts.transcript) throw new UsageError("nothing to submit: give audio files, or --transcript <file>");
    if (opts.transcript && files.length > 1) throw new UsageError("--transcript goes with one call: give at most one audio file");
    if (opts.repSpeaker && !opts.transcript) throw new UsageError("--rep-speaker needs --transcript");
    const config = configFrom(command, ctx);
    const services = await createServices({ ...config, logLevel: config.logLevel === "info" ? "error" : config.logLevel });
    try {
      if (!(await getCompany(services.store.db, companyId))) throw new AppError("not_found", `company ${companyId} not found`);
      // Like serve: a missing or broken model stops here, naming the file, before any call is accepted.
      if (opts.wait && services.pipeline === "live") openWhisperTranscriber(services.config, services.logger);
      // Without a transcript to read, the placeholder pipeline scores nothing real: say so where people and programs look.
      const placeholder = services.pipeline === "placeholder" && !opts.transcript;
      const accepted = opts.transcript
        ? [await acceptWithTranscript(services, ctx, companyId, files[0], opts)]
        : await acceptAudioFiles(services, ctx, companyId, files, opts);
      const mark = <T extends object>(x: T) => (placeholder ? { ...x, placeholder_report: true } : x);
      // After the calls are in (a refused file stays a one-line error). Chosen with --pipeline
      // placeholder it is no surprise; reached through `auto` (no model installed) it is.
      if (placeholder && config.pipeline !== "placeholder") ctx.io.err(PLACEHOLDER_WARNING);
      if (!opts.wait) {
        if (opts.json) printJson(ctx.io, single(accepted.map((a) => mark({ ...a, processing_status_url: callPath(a.call_id) }))));
        return;
      }
      const finished = await waitForCalls(
        services,
        accepted.map((a) => a.call_id),
        ctx.io,
        !!opts.json,
      );
      const results = finished.map((c, i) => mark({ file: accepted[i].file, ...c }));
      if (opts.json) printJson(ctx.io, single(results));
      const failed = results.filter((r) => r.processing_status === "failed");
      if (failed.length > 0)
        throw new Error(`${failed.length} of ${results.length} calls failed: ${failed.map((f) => `call ${f.call_id} (${f.failure_reason})`).join(", ")}`);
    } finally {
      await services.close();
    }
  });
}

interface SubmitOptions {
  company: string;
  repName?: string;
  customerName?: string;
  transcript?: string;
  repSpeaker?: string;
  wait?: boolean;
  json?: boolean;
}

type Accepted = { file: string; call_id: number; status: string };

export const PLACEHOLDER_WARNING =
  "callreview: warning: pipeline placeholder (no whisper model installed): the report will be a deterministic placeholder, not an analysis of the audio. " +
  "For a real report copy a whisper model into the models dir (callreview doctor says which and where), or bring the words with --transcript <file>.";

/** One call from a transcript file, with its audio file or none; the transcript is parsed first so a bad one leaves nothing behind. */
async function acceptWithTranscript(
  services: Services,
  ctx: CliContext,
  companyId: number,
  audioFile: string | undefined,
  opts: SubmitOptions,
): Promise<Accepted> {
  const config = services.config;
  const transcript = readTranscriptFile(opts.transcript!, opts.repSpeaker);
  const audio = audioFile
    ? await storeAudioFile(config.audioDir, audioFile, { maxBytes: config.maxUploadMb * 1024 * 1024 }).catch((e) => {
        throw new AppError((e as AppError).code ?? "invalid_file", `${audioFile}: ${(e as Error).message}`);
      })
    : null;
  const { call, duplicate } = await acceptCall(services.store.db, {
    companyId,
    intake: "cli",
    fields: { rep_name: opts.repName ?? null, customer_name: opts.customerName ?? null },
    audio: audio ? { sha256: audio.sha256, format: audio.format, bytes: audio.bytes } : null,
    // In the call's own transaction: a running server can never claim the call before its transcript exists.
    transcript,
  });
  const file = audioFile ?? opts.transcript!;
  if (!opts.json) ctx.io.out(`${file}: call ${call.id} ${duplicate ? "duplicate" : "received"} with transcript ${opts.transcript} (${callPath(call.id)})`);
  return { file, call_id: call.id, status: duplicate ? "duplicate" : "received" };
}

/** One call per audio file, in order; a bad file stops the run and names the calls already submitted. */
async function acceptAudioFiles(services: Services, ctx: CliContext, companyId: number, files: string[], opts: SubmitOptions): Promise<Accepted[]> {
  const config = services.config;
  const accepted: Accepted[] = [];
  for (const file of files) {
    let stored;
    try {
      stored = await storeAudioFile(config.audioDir, file, { maxBytes: config.maxUploadMb * 1024 * 1024 });
    } catch (e) {
      const done = accepted.length ? ` (already submitted: ${accepted.map((a) => `${a.file} -> call ${a.call_id}`).join(", ")})` : "";
      throw new AppError((e as AppError).code ?? "invalid_file", `${file}: ${(e as Error).message}${done}`);
    }
    const { call, duplicate } = await acceptCall(services.store.db, {
      companyId,
      intake: "cli",
      fields: { rep_name: opts.repName ?? null, customer_name: opts.customerName ?? null },
      audio: { sha256: stored.sha256, format: stored.format, bytes: stored.bytes },
    });
    accepted.push({ file, call_id: call.id, status: duplicate ? "duplicate" : "received" });
    if (!opts.json) ctx.io.out(`${file}: call ${call.id} ${duplicate ? "duplicate" : "received"} (${callPath(call.id)})`);
  }
  return accepted;
}

function single<T>(xs: T[]): T | T[] {
  return xs.length === 1 ? xs[0] : xs;
}

async function waitForCalls(services: Services, ids: number[], io: Io, quiet: boolean) {
  // A finished job wakes the loop at once; the timer only refreshes the progress shown meanwhile.
  let jobDone: () => void = () => {};
  const pool = startWorkers(services, { count: Math.max(1, services.config.workers), onJobDone: () => jobDone() });
  const last = new Map<number, string>();
  let frame = 0;
  try {
    for (;;) {
      let pending = 0;
      const lines: string[] = [];
      for (const id of ids) {
        const p = (await callProgress(services, id))!;
        if (!isFinished(p.call)) pending++;
        const stage =
          p.stage && p.call.processing_status !== p.stage
            ? ` (${p.stage}${p.progress !== null ? ` ${p.progress}%` : ""})`
            : p.progress !== null
              ? ` ${p.progress}%`
              : "";
        const text = `call ${id}: ${p.call.processing_status}${stage}${p.call.failure_reason ? ` — ${p.call.failure_reason}` : ""}${p.call.overall_score !== null && p.call.processing_status === "complete" ? ` — score ${p.call.overall_score}, ${p.call.outcome}` : ""}`;
        lines.push(text);
        if (last.get(id) !== text) {
          last.set(id, text);
          if (!quiet && !process.stderr.isTTY) io.err(text);
        }
      }
      const summary = `${FRAMES[frame++ % FRAMES.length]} ${ids.length - pending}/${ids.length} done — ${lines.find((l) => !/complete|failed/.test(l)) ?? lines.at(-1)}`;
      if (!quiet) spinLine(summary);
      if (pending === 0) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, 100);
        function done() {
          clearTimeout(t);
          jobDone = () => {};
          resolve();
        }
        jobDone = done;
      });
    }
  } finally {
    await pool.stop(5_000);
    if (!quiet && process.stderr.isTTY) spinLine("") && process.stderr.write("\r");
  }
  const out = [];
  for (const id of ids) {
    const call = (await callProgress(services, id))!.call;
    if (!quiet && process.stderr.isTTY) io.err(`call ${id}: ${call.processing_status}${call.failure_reason ? ` (${call.failure_reason})` : ""}`);
    out.push(toCallResource(call));
  }
  return out;
}
