import type { Services } from "../../services.js";
import { RETENTION_ACTOR } from "../audit.js";
import { runRetention } from "./run-retention.js";

/** Items one tick may touch: small, so the sweeper never holds the single SQLite writer for long. */
const BATCH = 50;

/**
 * The retention sweeper inside `serve`: every interval it applies the
 * policies in batches of 50 items, going on at once while work is left.
 * Errors are logged and retried on the next tick, never fatal.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly services: Services,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.intervalMs <= 0) return;
    this.schedule(Math.min(this.intervalMs, 5_000));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => (this.running = undefined));
    }, ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    let more = false;
    try {
      const run = await runRetention(this.services, { actor: RETENTION_ACTOR, maxItems: BATCH });
      more = !run.finished;
      const touched = run.companies.filter((c) => c.calls_erased + c.transcripts_expired + c.audio_expired > 0);
      if (touched.length > 0)
        this.services.logger.info("retention applied", {
          companies: touched.map((c) => ({
            company_id: c.company_id,
            calls_erased: c.calls_erased,
            transcripts_expired: c.transcripts_expired,
            audio_expired: c.audio_expired,
          })),
        });
    } catch (e) {
      this.services.logger.warn("retention sweep failed; retried on the next tick", { error: e instanceof Error ? e.message : String(e) });
    }
    this.schedule(more ? 0 : this.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
