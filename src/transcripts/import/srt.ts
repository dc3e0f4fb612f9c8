import { checkCues, parseClock, type Problems, type RawCue } from "./common.js";

/**
 * SubRip. SRT has no speaker field; a cue that starts with "Name:" or "[Name]"
 * (a name of up to four words) gives its speaker, as most diarising exporters write it.
 */
export function parseSrt(text: string, problems: Problems): RawCue[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const cues: RawCue[] = [];
  let i = 0;
  while (i < lines.length) {
    while (i < lines.length && lines[i].trim() === "") i++;
    if (i >= lines.length) break;
    if (!/^\d+$/.test(lines[i].trim())) {
      problems.add(`line ${i + 1}: expected a cue number, found "${lines[i].slice(0, 60)}"`);
      while (i < lines.length && lines[i].trim() !== "") i++;
      continue;
    }
    const where = `cue ${lines[i].trim()} (line ${i + 1})`;
    i++;
    const m = /^(\S+)\s+-->\s+(\S+)/.exec(lines[i]?.trim() ?? "");
    if (!m) {
      problems.add(`${where}: expected a timing line "00:00:01,000 --> 00:00:04,000" on line ${i + 1}`);
      while (i < lines.length && lines[i].trim() !== "") i++;
      continue;
    }
    const start = parseClock(m[1], ",");
    const end = parseClock(m[2], ",");
    if (start === null || end === null) problems.add(`${where}: bad timestamp "${start === null ? m[1] : m[2]}" (expected hh:mm:ss,mmm)`);
    i++;
    const body: string[] = [];
    while (i < lines.length && lines[i].trim() !== "") body.push(lines[i++]);
    let content = body
      .join(" ")
      .replace(/<[^>]*>/g, "")
      .trim();
    let speaker: string | null = null;
    const named = /^\[([^\]]{1,60})\]\s*(.*)$/.exec(content) ?? /^([A-Za-z][\w.'-]*(?: [A-Za-z][\w.'-]*){0,3}):\s+(.*)$/.exec(content);
    if (named) {
      speaker = named[1].trim();
      content = named[2];
    }
    if (start !== null && end !== null) cues.push({ t_start: start, t_end: end, speaker, text: content, where });
  }
  checkCues(cues, problems);
  return cues;
}
