/**
 * The kernel's one concurrency limiter, under every driver: a batch's `concurrency`
 * (items in their send step), the outbox relay's send slots, `reconcile`'s lookups and a
 * subscription pass's workers. Not a pacer: the client's admission stage paces the calls
 * (src/payments/pacing.ts). At most `limit` holders at once; others queue in order.
 */
export class ConcurrencyLimit {
  #free: number;
  readonly #queue: (() => void)[] = [];

  constructor(limit: number) {
    this.#free = limit;
  }

  /** Places free now (none while any caller waits). */
  get free(): number {
    return this.#free;
  }

  /** Resolves once a place is held (in the order asked). */
  acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  /** Holds a place at once if one is free: whether it did. */
  tryAcquire(): boolean {
    if (this.#free <= 0) return false;
    this.#free -= 1;
    return true;
  }

  /** Gives a place back: to the first waiting caller, else free. */
  release(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#free += 1;
  }
}

/**
 * Runs `work` on each thing `next` gives, at most `limit` at once, in the order given,
 * until `next` gives undefined. A `work` that throws stops taking more: the first error
 * is thrown once the ones running have ended.
 */
export async function forEachLimited<T>(
  limit: number,
  next: () => T | undefined | Promise<T | undefined>,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const places = new ConcurrencyLimit(limit);
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  for (;;) {
    await places.acquire();
    let item: T | undefined;
    try {
      item = failure ? undefined : await next();
    } catch (error) {
      failure ??= { error };
    }
    if (item === undefined) {
      places.release();
      break;
    }
    const task: Promise<void> = work(item)
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => {
        running.delete(task);
        places.release();
      });
    running.add(task);
  }
  await Promise.all(running);
  if (failure) throw failure.error;
}
