/** Days each part of a call is kept (company.settings.retention); null = forever. */
export interface RetentionPolicy {
  /** Audio files: after this the call, transcript and report stay readable, the recording is gone. */
  audio_days: number | null;
  /** Transcripts: the words go; the call and its report stay. */
  transcripts_days: number | null;
  /** The whole call, erased as by `calls delete` (call.deleted is emitted). */
  calls_days: number | null;
}

/** `0` or `off` turns a limit off; otherwise 1..36500 days. */
export function parseRetentionDays(value: string, flag: string): number | null {
  const v = value.trim().toLowerCase();
  if (v === "off" || v === "0") return null;
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 36_500)
    throw new Error(`invalid ${flag} "${value}" (expected a number of days from 1 to 36500, or 0 / off for no limit)`);
  return Number(v);
}

export function retentionOf(settings: Record<string, unknown>): RetentionPolicy {
  const r = (settings.retention ?? {}) as Partial<Record<keyof RetentionPolicy, unknown>>;
  const days = (x: unknown) => (typeof x === "number" && Number.isInteger(x) && x > 0 ? x : null);
  return { audio_days: days(r.audio_days), transcripts_days: days(r.transcripts_days), calls_days: days(r.calls_days) };
}

/** The creation time before which a part is due: now minus the days. */
export function cutoff(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString();
}
