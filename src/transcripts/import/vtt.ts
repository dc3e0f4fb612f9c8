import { checkCues, parseClock, type Problems, type RawCue } from "./common.js";

const TIMING = /^(\S+)\s+-->\s+(\S+)(?:\s+.*)?$/;

/**
 * WebVTT. The speaker comes from a voice tag, `<v Name>` or `<v.loud Name>`;
 * other tags are stripped. NOTE, STYLE and REGION blocks are skipped.
 */
export function parseVtt(text: string, problems: Problems): RawCue[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? "")) {
    problems.add('line 1: a WebVTT file must start with "WEBVTT"');
    return [];
  }
  const cues: RawCue[] = [];
  let i = 1;
  while (i < lines.length) {
    while (i < lines.length && lines[i].trim() === "") i++;
    if (i >= lines.length) break;
    const blockStart = i;
    if (/^(NOTE|STYLE|REGION)\b/.test(lines[i])) {
      while (i < lines.length && lines[i].trim() !== "") i++;
      continue;
    }
    // An optional cue identifier precedes the timing line.
    if (!lines[i].includes("-->") && lines[i + 1]?.includes("-->")) i++;
    const where = `cue ${cues.length + 1} (line ${i + 1})`;
    const m = TIMING.exec(lines[i].trim());
    if (!m) {
      problems.add(`line ${i + 1}: expected a timing line "00:00:01.000 --> 00:00:04.000", found "${lines[i].slice(0, 60)}"`);
      while (i < lines.length && lines[i].trim() !== "") i++;
      continue;
    }
    const start = parseClock(m[1], ".");
    const end = parseClock(m[2], ".");
    if (start === null || end === null) problems.add(`${where}: bad timestamp "${start === null ? m[1] : m[2]}" (expected hh:mm:ss.mmm or mm:ss.mmm)`);
    i++;
    const body: string[] = [];
    while (i < lines.length && lines[i].trim() !== "") body.push(lines[i++]);
    const joined = body.join(" ");
    const voice = /<v(?:\.[^\s>]+)*\s+([^>]+)>/.exec(joined);
    const clean = joined
      .replace(/<[^>]*>/g, "")
      .replace(/&amp;/g, "&")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&nbsp;/g, " ")
      .trim();
    if (start !== null && end !== null) cues.push({ t_start: start, t_end: end, speaker: voice ? voice[1].trim() : null, text: clean, where });
    void blockStart;
  }
  checkCues(cues, problems);
  return cues;
}
