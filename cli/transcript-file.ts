import fs from "node:fs";
import { AppError } from "../src/errors.js";
import type { Transcript } from "../src/pipeline/ports.js";
import { formatOfFileName, parseTranscript } from "../src/transcripts/import/index.js";

/** A transcript file (.vtt, .srt, .json) read for a command, every problem as one line naming the file. */
export function readTranscriptFile(file: string, repSpeaker?: string): Transcript {
  const format = formatOfFileName(file);
  if (!format) throw new Error(`cannot tell the format of ${file}: use a .vtt, .srt or .json file`);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return parseTranscript(format, text, repSpeaker);
  } catch (e) {
    if (e instanceof AppError && e.errors) throw new Error(`${file}: ${Object.values(e.errors).flat().join("; ")}`);
    throw e;
  }
}
