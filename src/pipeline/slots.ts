/**
 * A counting semaphore: `size` holders at once, waiters served in order. The
 * pool keeps two, so jobs waiting on the network (downloads) do not occupy
 * the slots of the CPU-bound stages (transcription, analysis).
 */
export class Slots {
  #free: number;
  readonly #waiters: Array<() => void> = [];

  constructor(readonly size: number) {
    this.#free = size;
  }

  /** Rejects with the signal's reason if it aborts before a slot is free. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.#waiters.indexOf(grant);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal!.reason);
      };
      this.#waiters.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#free++;
  }
}

/** A worker's hold on one CPU slot, which it gives up while its job waits on a download. */
export interface CpuHold {
  release(): void;
  reacquire(signal?: AbortSignal): Promise<void>;
}

export function holdSlot(slots: Slots): CpuHold {
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      slots.release();
    },
    async reacquire(signal) {
      if (held) return;
      await slots.acquire(signal);
      held = true;
    },
  };
}
