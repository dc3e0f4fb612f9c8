/** ISO 8601 UTC with `Z` and milliseconds: the one timestamp format of the store and the API. */
export function isoNow(now: Date = new Date()): string {
  return now.toISOString();
}

/** Injected wherever time decides behaviour (leases, backoff, retries, rate windows), so tests need no sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** An ISO time `ms` later (session expiry, lockout end). */
export function addMs(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}
