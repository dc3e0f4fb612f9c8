import type { Clock } from "../time.js";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  resetAt: number;
  /** Whole seconds until the window ends (at least 1): the Retry-After of a 429. */
  retryAfter: number;
}

/**
 * Fixed-window counter per API key, aligned to multiples of the window since
 * the epoch. State lives in this process: each `serve` process counts on its
 * own. Counting is synchronous (no await between read and increment), so
 * concurrent requests can never let more than `limit` through in a window.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<number, { start: number; count: number }>();
  private sweptAt = 0;

  constructor(
    private readonly limit: number,
    private readonly windowSeconds: number,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  hit(keyId: number): RateDecision {
    const now = this.clock.now().getTime();
    const windowMs = this.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    this.sweep(start);
    let w = this.windows.get(keyId);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(keyId, w);
    }
    const allowed = w.count < this.limit;
    if (allowed) w.count += 1;
    const end = start + windowMs;
    return {
      allowed,
      limit: this.limit,
      remaining: this.limit - w.count,
      resetAt: Math.ceil(end / 1000),
      retryAfter: Math.max(1, Math.ceil((end - now) / 1000)),
    };
  }

  /** Forget windows that ended, at most once per window, so idle keys do not accumulate. */
  private sweep(currentStart: number): void {
    if (this.sweptAt === currentStart) return;
    this.sweptAt = currentStart;
    for (const [id, w] of this.windows) if (w.start < currentStart) this.windows.delete(id);
  }
}
