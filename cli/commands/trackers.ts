import fs from "node:fs";
import { Option, type Command } from "commander";
import type { Transcript } from "../../src/pipeline/ports.js";
import { clock } from "../../src/pipeline/analyzers/rules/evidence.js";
import { detect, type Suppressed, type TrackerHit } from "../../src/trackers/engine.js";
import { parseTrackerFile, TrackerConfigError } from "../../src/trackers/file.js";
import { BUILTIN_TRACKERS } from "../../src/trackers/library/index.js";
import { buildTrackers, effectiveTrackers } from "../../src/trackers/registry.js";
import type { CliContext } from "../context.js";
import { printJson } from "../io.js";
import { readTranscriptFile } from "../transcript-file.js";
import { UsageError } from "../exit-codes.js";

/**
 * `callreview trackers test <file>`: what the trackers of a company file (with
 * the built-ins it keeps) find in a line or a transcript, and why — pattern or
 * classifier score, and which exclusions held a tracker back. Stores nothing.
 */
export function trackersCommand(program: Command, ctx: CliContext): void {
  const trackers = program.command("trackers").description("Try tracker files before they meet real calls");
  trackers
    .command("test <file>")
    .description(
      'Show which trackers fire on a line (--text) or a transcript (--transcript) and why; <file> is a company tracker file, or "builtin" for the built-in library alone',
    )
    .option("--text <text>", "one utterance to test")
    .addOption(
      new Option("--speaker <role>", "who says the --text line (unknown: every tracker applies)").choices(["rep", "customer", "unknown"]).default("unknown"),
    )
    .option("--transcript <file>", "a transcript file (.vtt, .srt, .json) to test")
    .option("--rep-speaker <name>", "in --transcript, the speaker who is the rep")
    .option("--json", "print one JSON document")
    .action((file: string, opts: { text?: string; speaker: string; transcript?: string; repSpeaker?: string; json?: boolean }) => {
      if ((opts.text === undefined) === (opts.transcript === undefined)) throw new UsageError("give exactly one of --text or --transcript");
      const override = file === "builtin" ? undefined : readTrackerFile(file);
      const own = new Set((override?.trackers ?? []).map((t) => t.id));
      const compiled = buildTrackers(effectiveTrackers(override));
      const transcript = opts.transcript !== undefined ? readTranscriptFile(opts.transcript, opts.repSpeaker) : oneLine(opts.text!, opts.speaker);
      const suppressed: Suppressed[] = [];
      const hits = detect(transcript.segments, compiled, { explain: true, suppressed });
      const builtin = new Set(BUILTIN_TRACKERS.map((t) => t.id));
      const source = (id: string) => (own.has(id) ? "file" : builtin.has(id) ? "built-in" : "file");
      const segments = transcript.segments.map((s, i) => ({
        t: s.t_start,
        speaker: String(s.speaker),
        text: s.text,
        hits: hits.filter((h) => h.segment === i).map((h) => describeHit(h, source(h.tracker.id))),
        suppressed: suppressed.filter((x) => x.segment === i).map(({ tracker, sentence, why }) => ({ tracker, sentence, why })),
      }));
      if (opts.json) {
        printJson(ctx.io, { trackers: file, tracker_count: compiled.length, segments });
        return;
      }
      const out: string[] = [`${compiled.length} trackers (${file === "builtin" ? "built-in library" : `${file} with the built-ins it keeps`})`];
      for (const s of segments) {
        out.push(`\n[${clock(s.t)}] ${s.speaker}: ${s.text}`);
        if (s.hits.length === 0 && s.suppressed.length === 0) out.push("  (nothing fires)");
        for (const h of s.hits) {
          const why =
            h.by === "pattern"
              ? `pattern ${JSON.stringify(h.pattern)}${h.score !== null ? `; classifier ${h.score.toFixed(2)}` : ""}`
              : `classifier ${h.score!.toFixed(2)} >= ${h.threshold}`;
          out.push(`  FIRES ${h.category}/${h.type}  [${h.tracker}, ${h.source}]  ${why}${h.features?.length ? `  (${h.features.join(", ")})` : ""}`);
          if (h.sentence !== s.text) out.push(`        on "${h.sentence}"`);
        }
        for (const x of s.suppressed) out.push(`  held back ${x.tracker}: ${x.why}`);
      }
      ctx.io.out(out.join("\n"));
    });
}

function describeHit(h: TrackerHit, source: string) {
  return {
    tracker: h.tracker.id,
    source,
    category: h.tracker.category,
    type: h.tracker.type,
    by: h.reason.by,
    score: h.reason.score,
    threshold: h.tracker.threshold,
    ...(h.reason.pattern ? { pattern: h.reason.pattern } : {}),
    ...(h.reason.features ? { features: h.reason.features } : {}),
    sentence: h.sentence,
  };
}

function readTrackerFile(file: string) {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`cannot read tracker file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return parseTrackerFile(text, file);
  } catch (e) {
    if (e instanceof TrackerConfigError) throw new UsageError(`invalid tracker file: ${e.problems.join("; ")}`);
    throw e;
  }
}

function oneLine(text: string, speaker: string): Transcript {
  if (!text.trim()) throw new UsageError("--text must not be empty");
  return { segments: [{ t_start: 0, t_end: 1, speaker, text }], metrics: null, language: "en", model: "imported" };
}
