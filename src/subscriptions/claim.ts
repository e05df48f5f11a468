import type { Subscription, SubscriptionStore } from '../contracts/subscription-store';
import { LostClaim } from './context';

/**
 * A subscription's lease lasts this long (real time) from the pass's last write or
 * renewal: a dead runner's subscriptions are taken over at most this long after its death
 * (DESIGN 9.1's 15 s, as batch items and outbox payments).
 */
export const LEASE_MS = 15_000;

/** A compare-and-set write: the new version, or undefined when another writer came first. */
type Write = (sub: Subscription, expected: number | undefined) => Promise<number | undefined>;

/**
 * One pass's hold on one subscription: every write is a compare-and-set on the version
 * this pass last wrote, and extends the lease while the pass holds it; between writes
 * (a charge awaited for up to `waitMs`) the lease is renewed at a third of it. Writes
 * and renewals go one at a time. Once another writer came first, every later write
 * throws `LostClaim`.
 */
export class Claim {
  readonly #store: SubscriptionStore;
  readonly #key: string;
  readonly #owner: string;
  #version: number | undefined;
  #lost = false;
  #queue: Promise<unknown> = Promise.resolve();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(store: SubscriptionStore, key: string, owner: string, version: number) {
    this.#store = store;
    this.#key = key;
    this.#owner = owner;
    this.#version = version;
  }

  /** The lease this pass writes now. */
  lease(): NonNullable<Subscription['lease']> {
    return { owner: this.#owner, until: Date.now() + LEASE_MS };
  }

  /**
   * Writes `sub` (its lease extended while it is this pass's) with `write`, a
   * compare-and-set on the version given (the store's `put` unless said); throws `LostClaim`.
   */
  save(sub: Subscription, write?: Write): Promise<void> {
    return this.#next(async () => {
      if (sub.lease?.owner === this.#owner) sub.lease = this.lease();
      await this.#put(sub, write);
    });
  }

  /** Renews the lease at a third of it until `release()`. */
  hold(): void {
    this.#timer ??= setInterval(() => void this.#renew(), LEASE_MS / 3);
    this.#timer.unref?.();
  }

  release(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The stored record written again with a new lease (the pass's own state is not touched). */
  #renew(): Promise<void> {
    return this.#next(async () => {
      const stored = await this.#store.get(this.#key);
      const held = stored?.version === this.#version ? stored?.subscription : undefined;
      if (held?.lease?.owner !== this.#owner) {
        this.#lost = true; // changed by another writer: the next write says so
        return;
      }
      await this.#put({ ...held, lease: this.lease() });
    }).catch(() => {}); // a store error: tried again at the next third; a lost claim: noted
  }

  async #put(sub: Subscription, write?: Write): Promise<void> {
    if (this.#lost) throw new LostClaim(this.#key);
    this.#version = await (write ?? this.#store.put.bind(this.#store))(sub, this.#version);
    if (this.#version === undefined) {
      this.#lost = true;
      throw new LostClaim(this.#key);
    }
  }

  #next(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }
}
