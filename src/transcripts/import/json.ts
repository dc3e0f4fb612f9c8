import { z } from "zod";
import { checkCues, type Problems, type RawCue } from "./common.js";

const SegmentSchema = z.strictObject({
  speaker: z.string().max(100).nullable().optional(),
  t_start: z.number(),
  t_end: z.number(),
  text: z.string(),
});
export const JsonTranscriptSchema = z.object({ segments: z.array(SegmentSchema) });

/** JSON `{segments: [{speaker, t_start, t_end, text}]}`, times in seconds. */
export function parseJsonTranscript(value: unknown, problems: Problems): RawCue[] {
  const parsed = JsonTranscriptSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues.slice(0, 20)) problems.add(`${issue.path.join(".") || "(root)"}: ${issue.message}`);
    return [];
  }
  const cues = parsed.data.segments.map((s, n) => ({ t_start: s.t_start, t_end: s.t_end, speaker: s.speaker ?? null, text: s.text, where: `segments.${n}` }));
  checkCues(cues, problems);
  return cues;
}
