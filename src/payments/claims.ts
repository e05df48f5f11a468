/**
 * The one leased and fenced claim of the kernel (docs/architecture.md), under the batch runner and
 * the outbox relay: a claim is a store's lease on one payment and the fencing token every
 * write for it carries. A `ClaimHolder` keeps every claim its driver holds: all renewed
 * together at a third of the lease (one store round trip for them all when the store can
 * renew a group), each lost (its signal aborted: stop, write nothing more) when a renewal
 * is refused (another process took it over) or when its lease ran out without a renewal
 * (the store could not be reached: another process may hold it now).
 */

/**
 * The default lease of a claim (15 s): how long a dead process's claim holds its payment
 * before another process takes it over; renewed at a third of it while held. A store or a
 * driver with a `leaseMs` option overrides it.
 */
export const DEFAULT_LEASE_MS = 15_000;

/** A claim as a store names it. */
export interface ClaimRef {
  readonly key: string;
  readonly token: string;
}

/**
 * How a store renews: `all`, every claim in one round trip, resolving to the tokens
 * still held (kept as they are); or `one`, one claim at a time (a store that renews by
 * claiming again), resolving to its new token, or undefined once another owner holds it.
 */
export type Renewal =
  | { all(claims: readonly ClaimRef[]): Promise<ReadonlySet<string>> }
  | { one(claim: ClaimRef): Promise<string | undefined> };

/** What a holder tells of its store (the relay's log). */
export interface ClaimHolderEvents {
  renewed?(): void;
  failed?(error: unknown): void;
}

/** Why a claim is lost. */
export const TAKEN_OVER = 'claim taken over by another process';
export const LAPSED = 'claim lapsed unrenewed (the store could not be reached)';

/** One held claim: its current token, until when its lease runs, and whether it was lost. */
export class HeldClaim implements ClaimRef {
  readonly key: string;
  #token: string;
  /** Until when (this process's clock) the lease is thought to run. */
  leaseUntil: number;
  readonly #lost = new AbortController();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(key: string, token: string, leaseUntil: number) {
    this.key = key;
    this.#token = token;
    this.leaseUntil = leaseUntil;
  }

  get token(): string {
    return this.#token;
  }

  /** Whether another owner took it over, or its lease ran out unrenewed. */
  get lost(): boolean {
    return this.#lost.signal.aborted;
  }

  /** Aborted once the claim is lost. */
  get signal(): AbortSignal {
    return this.#lost.signal;
  }

  /**
   * Whether the claim still holds: not lost, and its lease not run out on this process's
   * clock (then it is lost now: lapsed).
   */
  live(): boolean {
    if (!this.lost && Date.now() >= this.leaseUntil) this.lose(LAPSED);
    return !this.lost;
  }

  /**
   * Runs a store write with the current token, after any renewal of this claim in
   * progress; rejects, writing nothing, once the claim is lost or its lease ran out.
   */
  write<T>(write: (token: string) => Promise<T>): Promise<T> {
    return this.queue(() => {
      if (!this.live()) throw this.#lost.signal.reason;
      return write(this.#token);
    });
  }

  /** Runs `step` after the writes (and renewal) queued so far. */
  queue<T>(step: () => Promise<T>): Promise<T> {
    const done = this.#queue.then(step);
    this.#queue = done.catch(() => {});
    return done;
  }

  /** Resolves once the writes (and renewal) queued so far have ended. */
  settled(): Promise<unknown> {
    return this.#queue;
  }

  /** Lost: its work stops, nothing more is written for it. */
  lose(why: string): void {
    if (!this.lost) this.#lost.abort(new Error(why));
  }

  /** Renewed at `started` for `leaseMs`, under `token` (the same, for a grouped renewal). */
  renewed(token: string, until: number): void {
    this.#token = token;
    this.leaseUntil = Math.max(this.leaseUntil, until);
  }
}

/**
 * Every claim a driver holds on one store, renewed together at a third of `leaseMs` while
 * any is held (one timer, stopped when none is).
 */
export class ClaimHolder {
  readonly #leaseMs: number;
  readonly #renewal: Renewal;
  readonly #events: ClaimHolderEvents;
  readonly #held = new Set<HeldClaim>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #renewing = false;

  constructor(leaseMs: number, renewal: Renewal, events: ClaimHolderEvents = {}) {
    this.#leaseMs = leaseMs;
    this.#renewal = renewal;
    this.#events = events;
  }

  /** Claims held now. */
  get size(): number {
    return this.#held.size;
  }

  /**
   * Holds a claim the store just granted. Its lease is counted from `askedAt` (when the
   * claim was asked for: the store granted it no earlier), so this process never thinks
   * it holds a claim the store's clock has let run out, however late the answer came.
   */
  hold(key: string, token: string, askedAt = Date.now()): HeldClaim {
    const claim = new HeldClaim(key, token, askedAt + this.#leaseMs);
    this.#held.add(claim);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => void this.renew(), Math.max(1, this.#leaseMs / 3));
      this.#timer.unref?.();
    }
    return claim;
  }

  /** Stops renewing `claim`; resolves once a renewal of it in progress has ended. */
  async letGo(claim: HeldClaim): Promise<void> {
    this.#held.delete(claim);
    if (this.#held.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
    await claim.settled();
  }

  /** Renews every claim held (the timer's turn); a turn still running skips the next. */
  async renew(): Promise<void> {
    if (this.#renewing || this.#held.size === 0) return;
    this.#renewing = true;
    const claims = [...this.#held];
    const until = Date.now() + this.#leaseMs;
    try {
      const renewal = this.#renewal;
      if ('all' in renewal) {
        const kept = await renewal.all(claims);
        this.#events.renewed?.();
        for (const claim of claims) {
          if (!this.#held.has(claim)) continue; // let go meanwhile
          if (kept.has(claim.token)) claim.renewed(claim.token, until);
          else claim.lose(TAKEN_OVER);
        }
      } else {
        await Promise.all(claims.map((claim) => this.#renewOne(renewal, claim, until)));
      }
    } catch (error) {
      this.#events.failed?.(error);
    } finally {
      this.#renewing = false;
      for (const claim of this.#held) claim.live(); // lapsed unrenewed: lost
    }
  }

  /** One claim claimed again, between its own writes (its token changes). */
  #renewOne(
    renewal: { one(claim: ClaimRef): Promise<string | undefined> },
    claim: HeldClaim,
    until: number,
  ): Promise<void> {
    return claim.queue(async () => {
      if (!this.#held.has(claim) || claim.lost) return;
      try {
        const token = await renewal.one(claim);
        if (token === undefined) claim.lose(TAKEN_OVER);
        else claim.renewed(token, until);
      } catch (error) {
        this.#events.failed?.(error); // tried again at the next turn; the lease tells
      }
    });
  }
}
