/**
 * The batch's own pacing of creating calls: a sliding-window pacer (`createRate` starts in
 * any second) that a 429 pauses, and a count of calls in flight (`concurrency`).
 * Integrator's note: once the client's admission stage paces creating calls itself
 * (the renovation issue), the pacer gives way to it.
 */
import { sleep } from '../payments/time';

export class Pacer {
  readonly #rate: number | undefined;
  /** Start times within the last second, oldest first. */
  readonly #starts: number[] = [];
  #pausedUntil = 0;

  constructor(rate: number | undefined) {
    this.#rate = rate;
  }

  /** Waits for a start within the rate and past any pause, then counts it. */
  async start(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = Date.now();
      if (this.#pausedUntil > now) {
        await sleep(this.#pausedUntil - now, signal);
        continue;
      }
      while (this.#starts.length > 0 && this.#starts[0]! <= now - 1000) this.#starts.shift();
      if (this.#rate === undefined || this.#starts.length < this.#rate) {
        this.#starts.push(now);
        return;
      }
      await sleep(this.#starts[0]! + 1000 - now, signal);
    }
  }

  /** A 429: no start for `ms` (the provider's Retry-After, or a second). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + ms);
  }
}

/** At most `limit` holders at once; others queue in order. */
export class Slots {
  #free: number;
  readonly #queue: (() => void)[] = [];

  constructor(limit: number) {
    this.#free = limit;
  }

  acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  release(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#free += 1;
  }
}
