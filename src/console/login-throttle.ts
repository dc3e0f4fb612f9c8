/**
 * Slows password guessing before the account lockout (users.ts) is reached,
 * and across accounts: at most LIMIT sign-in attempts per email address per
 * window, in this process's memory. The lockout in the database is what holds
 * across restarts and processes.
 */
const LIMIT = 10;
const WINDOW_MS = 5 * 60_000;

export class LoginThrottle {
  private attempts = new Map<string, number[]>();

  /** Seconds to wait, or 0 when this attempt may go ahead (and is then counted). */
  take(key: string, nowMs: number): number {
    const recent = (this.attempts.get(key) ?? []).filter((t) => nowMs - t < WINDOW_MS);
    if (recent.length >= LIMIT) {
      this.attempts.set(key, recent);
      return Math.max(1, Math.ceil((recent[0] + WINDOW_MS - nowMs) / 1000));
    }
    recent.push(nowMs);
    this.attempts.set(key, recent);
    if (this.attempts.size > 10_000) this.sweep(nowMs);
    return 0;
  }

  private sweep(nowMs: number): void {
    for (const [k, v] of this.attempts) if (v.every((t) => nowMs - t >= WINDOW_MS)) this.attempts.delete(k);
  }
}
