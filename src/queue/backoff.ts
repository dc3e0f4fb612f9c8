/** Longest wait between two attempts of a job. */
export const MAX_BACKOFF_MS = 10 * 60 * 1000;

/** Exponential backoff: base after the first failed attempt, doubling per attempt, capped. */
export function backoffMs(attempts: number, baseMs: number): number {
  const n = Math.max(1, attempts);
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** (n - 1));
}
