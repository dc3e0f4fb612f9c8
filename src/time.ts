/** ISO 8601 UTC with `Z` and milliseconds: the one timestamp format of the store and the API. */
export function isoNow(now: Date = new Date()): string {
  return now.toISOString();
}

/** Injected wherever time decides behaviour (leases, backoff, retries, rate windows), so tests need no sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
