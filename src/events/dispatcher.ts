import { randomBase62 } from "../auth/random.js";
import type { Logger } from "../logger.js";
import type { Db } from "../store/db.js";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../store/schema.js";
import { claimDueDeliveries, dueEndpointIds, releaseDelivery } from "../store/webhook-deliveries.js";
import { findWebhookEndpoint } from "../store/webhook-endpoints.js";
import { eventPayloads } from "../store/webhook-fanout.js";
import { isoNow, type Clock } from "../time.js";
import { AttemptRecorder } from "./attempt-recorder.js";
import { performAttempt, resultOf, type AttemptResult } from "./delivery-attempt.js";
import { fanOutBatch } from "./fan-out.js";
import { MAX_ATTEMPTS_PER_SEQUENCE } from "./retry-schedule.js";

export interface DispatcherOptions {
  /** Attempts in flight at once, all endpoints together. */
  concurrency: number;
  /** Attempts in flight at once to one endpoint: a slow receiver holds at most this many slots. */
  perEndpoint: number;
  /** Per-attempt timeout (connect + answer), 10 s in production. */
  timeoutMs: number;
  /** How often the outbox and the due deliveries are looked at when nothing else wakes the loop. */
  pollMs: number;
  /** How long a claim is held; past it another dispatcher may take the delivery over (its holder died). */
  leaseMs: number;
  fanOutBatch: number;
  random?: () => number;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  concurrency: 64,
  perEndpoint: 8,
  timeoutMs: 10_000,
  pollMs: 250,
  leaseMs: 70_000,
  fanOutBatch: 500,
};

/**
 * Moves events from the outbox to receivers: fans each event out into
 * deliveries, claims due deliveries with a lease and runs their attempts with
 * bounded concurrency per endpoint and overall. All state is in the database,
 * so stopping (or crashing) and starting again resumes where it was.
 */
export class Dispatcher {
  readonly opts: DispatcherOptions;
  private readonly id = randomBase62(8);
  private claims = 0;
  private passes = 0;
  private readonly recorder: AttemptRecorder;
  private readonly inflight = new Map<number, Promise<AttemptResult | undefined>>();
  private readonly perEndpoint = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private passing: Promise<void> | undefined;
  private again = false;
  private started = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    opts: Partial<DispatcherOptions> = {},
  ) {
    this.opts = { ...DEFAULT_DISPATCHER_OPTIONS, ...opts };
    this.recorder = new AttemptRecorder(db, logger);
    if (opts.leaseMs === undefined) this.opts.leaseMs = this.opts.timeoutMs + 60_000;
  }

  /** Runs the loop in the background until stop(). */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule(0);
  }

  /** Claims nothing more, waits for the attempts in flight to finish and be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.passing;
    await this.idle();
  }

  /**
   * One pass: fan out everything new, then start attempts for due deliveries up
   * to the concurrency limits. Returns the number of attempts started; they run on.
   */
  async pass(): Promise<number> {
    const now = this.clock.now();
    for (;;) {
      const r = await fanOutBatch(this.db, now, this.opts.fanOutBatch);
      if (r.events < this.opts.fanOutBatch) break;
    }
    let free = this.opts.concurrency - this.inflight.size;
    if (free <= 0 || this.stopped) return 0;
    const nowIso = isoNow(now);
    const leaseUntil = isoNow(new Date(now.getTime() + this.opts.leaseMs));
    let launched = 0;
    // Start each pass at a different endpoint, so when the overall limit binds, no endpoint waits behind the same others every time.
    const due = await dueEndpointIds(this.db, nowIso, 10_000);
    const start = due.length > 0 ? this.passes++ % due.length : 0;
    for (const endpointId of [...due.slice(start), ...due.slice(0, start)]) {
      const slots = Math.min(free, this.opts.perEndpoint - (this.perEndpoint.get(endpointId) ?? 0));
      if (slots <= 0) continue;
      const token = `${this.id}-${++this.claims}`;
      const rows = await claimDueDeliveries(this.db, endpointId, nowIso, leaseUntil, token, slots);
      if (rows.length === 0) continue;
      // Read once per claim, not per delivery: the endpoint (URL, secrets) and the payloads.
      const endpoint = await findWebhookEndpoint(this.db, endpointId);
      const payloads = await eventPayloads(
        this.db,
        rows.map((r) => r.event_row_id),
      );
      for (const row of rows) this.launch(row, token, endpoint, payloads.get(row.event_row_id));
      launched += rows.length;
      free -= rows.length;
      if (free <= 0) break;
    }
    return launched;
  }

  /** Waits until no attempt is in flight. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight.values()]);
  }

  /** For tests and tools: passes until nothing due is left to start at the clock's current time. */
  async drain(): Promise<void> {
    for (;;) {
      const launched = await this.pass();
      await this.idle();
      if (launched === 0) return;
    }
  }

  private launch(row: WebhookDeliveryRow, token: string, endpoint: WebhookEndpointRow | undefined, payload: string | undefined): void {
    const ep = row.endpoint_id;
    this.perEndpoint.set(ep, (this.perEndpoint.get(ep) ?? 0) + 1);
    const p = this.attempt(row, token, endpoint, payload)
      .catch((e) => {
        // The lease runs out and the delivery is tried again; nothing is lost.
        this.logger.error("webhook delivery attempt crashed", { delivery_id: row.id, error: (e as Error).message });
        return undefined;
      })
      .finally(() => {
        this.inflight.delete(row.id);
        const n = (this.perEndpoint.get(ep) ?? 1) - 1;
        if (n <= 0) this.perEndpoint.delete(ep);
        else this.perEndpoint.set(ep, n);
        if (this.started) this.schedule(0);
      });
    this.inflight.set(row.id, p);
  }

  private async attempt(row: WebhookDeliveryRow, token: string, endpoint: WebhookEndpointRow | undefined, payload: string | undefined): Promise<AttemptResult> {
    if (endpoint?.enabled !== 1) {
      // Disabled or removed since the claim: give the delivery back untouched.
      await releaseDelivery(this.db, row.id, token);
      return { deliveryId: row.id, status: "released", responseStatus: null, error: null, nextAttemptAt: null };
    }
    if (row.retry_index >= MAX_ATTEMPTS_PER_SEQUENCE) {
      // The last attempt of the sequence was lost in a crash (it counted): the sequence is spent, nothing more is sent.
      await releaseDelivery(this.db, row.id, token, { error: row.last_error ?? "retry sequence spent", at: isoNow(this.clock.now()) });
      return { deliveryId: row.id, status: "failed", responseStatus: row.response_status, error: row.last_error, nextAttemptAt: null };
    }
    if (payload === undefined) {
      // The outbox never deletes events; should one vanish anyway, fail the delivery rather than claim it forever.
      const at = isoNow(this.clock.now());
      const outcome = {
        attempt: row.attempts,
        trigger: "scheduled" as const,
        started_at: at,
        signature_timestamp: 0,
        response_status: null,
        error: "event payload missing",
        duration_ms: 0,
        status: "failed" as const,
        retry_index: row.retry_index,
        next_attempt_at: null,
        at,
      };
      const record = { deliveryId: row.id, endpointId: row.endpoint_id, token, gone: false, outcome };
      await this.recorder.record(record);
      return resultOf(record);
    }
    const record = await performAttempt(row, token, endpoint, payload, {
      clock: this.clock,
      timeoutMs: this.opts.timeoutMs,
      logger: this.logger,
      random: this.opts.random,
    });
    await this.recorder.record(record);
    return resultOf(record);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.loop(), delayMs);
  }

  private async loop(): Promise<void> {
    this.timer = undefined;
    if (this.stopped || this.passing) return;
    this.again = false;
    this.passing = this.pass().then(
      () => undefined,
      (e) => void this.logger.error("webhook dispatcher pass failed", { error: (e as Error).message }),
    );
    await this.passing;
    this.passing = undefined;
    this.schedule(this.again ? 0 : this.opts.pollMs);
  }
}
