/**
 * docs/webhooks.md "Retries, statuses, timeouts": after the first failed attempt, retry at +30 s, 2 min,
 * 10 min, 1 h, 3 h, 6 h, 12 h, 24 h (each ±10 % jitter so a receiver coming
 * back is not hit by every delivery in the same second), then give up: nine
 * attempts over about two days, so a receiver that is down for a day still
 * gets every event.
 */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000] as const;
export const MAX_ATTEMPTS_PER_SEQUENCE = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.1;
/** A Retry-After longer than the longest scheduled gap is not trusted beyond it. */
export const MAX_RETRY_AFTER_MS = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1];

/**
 * Delay before the next attempt after `failedSoFar` failed attempts of this
 * sequence (1 after the first failure), or null when the sequence is spent.
 */
export function retryDelayMs(failedSoFar: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[failedSoFar - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfterMs(header: string | null | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const v = header.trim();
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return undefined;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
