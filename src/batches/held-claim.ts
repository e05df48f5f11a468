import type { BatchClaimToken, BatchHandle } from '../contracts/batch-store';

/**
 * An item's claim while the item is in flight: renewed (claimed again by its owner) at a
 * third of its lease until `stop()`, so that a wait longer than the lease keeps it. Every
 * write runs with the current token and never alongside a renewal. A renewal refused
 * (another owner took the item over) marks the claim `lost` and aborts `signal`: the
 * runner then drops the item without recording anything more for it.
 */
export class HeldClaim {
  readonly #handle: BatchHandle;
  readonly #key: string;
  readonly #owner: string;
  readonly #leaseMs: number;
  readonly #lost = new AbortController();
  #token: BatchClaimToken;
  #queue: Promise<unknown> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(handle: BatchHandle, key: string, owner: string, leaseMs: number, token: string) {
    this.#handle = handle;
    this.#key = key;
    this.#owner = owner;
    this.#leaseMs = leaseMs;
    this.#token = token;
    this.#schedule();
  }

  get token(): BatchClaimToken {
    return this.#token;
  }

  /** Whether another owner took the item over (a renewal was refused). */
  get lost(): boolean {
    return this.#lost.signal.aborted;
  }

  /** Aborted once the claim is lost. */
  get signal(): AbortSignal {
    return this.#lost.signal;
  }

  /** Runs a store write with the current token, after any renewal in progress. */
  write<T>(write: (token: BatchClaimToken) => Promise<T>): Promise<T> {
    const done = this.#queue.then(() => write(this.#token));
    this.#queue = done.catch(() => {});
    return done;
  }

  /** Stops renewing; resolves once a renewal in progress has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#queue;
  }

  #schedule(): void {
    if (this.#stopped || this.lost) return;
    this.#timer = setTimeout(() => void this.#renew(), Math.max(1, this.#leaseMs / 3));
    this.#timer.unref?.();
  }

  #renew(): Promise<void> {
    const renewed = this.write(async () => {
      if (this.#stopped) return;
      try {
        const token = await this.#handle.claim(this.#key, this.#owner, this.#leaseMs);
        if (token === undefined) {
          this.#lost.abort(new Error('claim taken over by another process'));
          return;
        }
        this.#token = token;
      } catch {
        // The store failed: try again at the next turn (the item's own writes will tell).
      }
      this.#schedule();
    });
    return renewed;
  }
}
