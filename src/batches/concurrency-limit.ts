/**
 * A batch's `concurrency`: items in their send step (account check, claim, intent,
 * creating call) at once. Not a pacer: the client's admission stage paces the calls
 * (src/payments/pacing.ts). At most `limit` holders at once; others queue in order.
 */
export class ConcurrencyLimit {
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
