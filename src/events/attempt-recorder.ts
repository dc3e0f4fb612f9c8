import type { Logger } from "../logger.js";
import type { Db } from "../store/db.js";
import { recordAttempts, type AttemptRecord } from "./delivery-attempt.js";

/**
 * Collects attempt records that finish close together and writes them in one
 * transaction: under load this turns a commit per delivery into a commit per
 * batch. Each caller's promise resolves once its record is durable.
 */
export class AttemptRecorder {
  private queue: Array<{ record: AttemptRecord; done: (kept: boolean) => void; fail: (e: unknown) => void }> = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly maxBatch = 200,
  ) {}

  record(record: AttemptRecord): Promise<boolean> {
    return new Promise((done, fail) => {
      this.queue.push({ record, done, fail });
      this.flushing ??= new Promise<void>((r) => setImmediate(r)).then(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const kept = await recordAttempts(
          this.db,
          batch.map((b) => b.record),
          this.logger,
        );
        for (const [i, b] of batch.entries()) b.done(kept[i]);
      } catch (e) {
        for (const b of batch) b.fail(e);
      }
    }
    this.flushing = undefined;
  }
}
