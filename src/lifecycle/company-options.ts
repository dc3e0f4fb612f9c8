import type { CompanySettings } from "../store/companies.js";
import { parseRedactKinds } from "./redaction/kinds.js";
import { parseRetentionDays, type RetentionPolicy } from "./retention/policy.js";

/** The lifecycle flags of `company update`, as commander hands them over. */
export interface LifecycleOptions {
  redact?: string;
  retainAudioDays?: string;
  retainTranscriptsDays?: string;
  retainCallsDays?: string;
  redactAudio?: string;
}

/** Validates the flags before anything is opened, so a bad value changes nothing. */
export function parseLifecycleOptions(opts: LifecycleOptions): (settings: CompanySettings) => CompanySettings | undefined {
  const redact = opts.redact !== undefined ? parseRedactKinds(opts.redact) : undefined;
  const retention: Partial<RetentionPolicy> = {};
  if (opts.retainAudioDays !== undefined) retention.audio_days = parseRetentionDays(opts.retainAudioDays, "--retain-audio-days");
  if (opts.retainTranscriptsDays !== undefined) retention.transcripts_days = parseRetentionDays(opts.retainTranscriptsDays, "--retain-transcripts-days");
  if (opts.retainCallsDays !== undefined) retention.calls_days = parseRetentionDays(opts.retainCallsDays, "--retain-calls-days");
  if (opts.redactAudio !== undefined && !["on", "off"].includes(opts.redactAudio))
    throw new Error(`invalid --redact-audio "${opts.redactAudio}" (expected on or off)`);
  const redactAudio = opts.redactAudio === undefined ? undefined : opts.redactAudio === "on";
  const touched = redact !== undefined || redactAudio !== undefined || Object.keys(retention).length > 0;
  return (settings) => {
    if (!touched) return undefined;
    const next: CompanySettings = { ...settings };
    if (redact !== undefined) next.redact = redact;
    if (redactAudio !== undefined) next.redact_audio = redactAudio;
    if (Object.keys(retention).length > 0) next.retention = { ...((settings.retention as object | undefined) ?? {}), ...retention };
    return next;
  };
}
