/**
 * A call queued for a slot: one object, listening to its signal itself (handleEvent)
 * and timed by a shared function, so a queued call costs no closures of its own.
 */
class Waiter {
  done = false;
  timer: ReturnType<typeof setTimeout> | undefined;
  constructor(
    readonly resolve: () => void,
    readonly reject: (reason: unknown) => void,
    readonly signal: AbortSignal | undefined,
    readonly expired: () => Error,
  ) {}

  grant(): void {
    this.#finish();
    this.resolve();
  }

  /** The signal's abort (EventTarget calls handleEvent on listener objects). */
  handleEvent(): void {
    this.#finish();
    this.reject(this.signal?.reason);
  }

  expire(): void {
    this.#finish();
    this.reject(this.expired());
  }

  #finish(): void {
    this.done = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this);
  }
}

function expire(waiter: Waiter): void {
  waiter.expire();
}

/**
 * The in-flight limit of one client. A call takes a slot before any request object is
 * built, so a burst of thousands of calls costs queue entries, not Requests, streams
 * and sockets. Queued calls keep their abort signal and their attempt's deadline.
 */
export class Limiter {
  readonly #max: number;
  #active = 0;
  readonly #queue: Waiter[] = [];
  #head = 0;

  constructor(max: number) {
    this.#max = max;
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#queue.length - this.#head;
  }

  /** Takes a slot at once if one is free and nobody queues (call `release` after), else false. */
  tryAcquire(): boolean {
    if (this.#active >= this.#max || this.queued > 0) return false;
    this.#active++;
    return true;
  }

  /**
   * Resolves when a slot is free (call `release` exactly once after), rejects with the
   * signal's reason on abort, or with `expired()` when `deadline` (epoch ms) passes.
   */
  acquire(signal: AbortSignal | undefined, deadline: number, expired: () => Error): Promise<void> {
    if (this.#active < this.#max && this.queued === 0) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter = new Waiter(resolve, reject, signal, expired);
      waiter.timer = setTimeout(expire, Math.max(0, deadline - Date.now()), waiter);
      signal?.addEventListener('abort', waiter, { once: true });
      this.#queue.push(waiter);
    });
  }

  release(): void {
    while (this.#head < this.#queue.length) {
      const next = this.#queue[this.#head] as Waiter;
      this.#queue[this.#head++] = undefined as unknown as Waiter;
      if (next.done) continue;
      this.#compact();
      next.grant(); // the slot passes straight on: #active stays the same
      return;
    }
    this.#compact();
    this.#active--;
  }

  #compact(): void {
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
