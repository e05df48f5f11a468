import type { Subscription, SubscriptionStore } from '../contracts/subscription-store';
import { ClaimHolder, type HeldClaim } from '../payments/claims';
import { LostClaim } from './context';

/** A compare-and-set write: the new version, or undefined when another writer came first. */
type Write = (sub: Subscription, expected: number | undefined) => Promise<number | undefined>;

/**
 * A pass's claims on its subscriptions, on the kernel's one claim holder
 * (src/payments/claims.ts: one lease, one renewer for every subscription the pass holds,
 * one lapse check). A subscription's claim is the lease written in its record (owner and
 * until when) and its token is the record's version: every write is a compare-and-set on
 * the version this pass last wrote. The holder renews each claim at a third of `leaseMs`
 * by writing the stored record again with a new lease, between the pass's own writes.
 */
export class SubscriptionClaims {
  readonly #store: SubscriptionStore;
  readonly #owner: string;
  readonly #leaseMs: number;
  readonly #holder: ClaimHolder;

  constructor(store: SubscriptionStore, owner: string, leaseMs: number) {
    this.#store = store;
    this.#owner = owner;
    this.#leaseMs = leaseMs;
    this.#holder = new ClaimHolder(leaseMs, {
      one: async (claim) => {
        const stored = await store.get(claim.key);
        const held = stored?.version === Number(claim.token) ? stored.subscription : undefined;
        if (held?.lease?.owner !== owner) return undefined; // changed by another writer
        const version = await store.put({ ...held, lease: this.lease() }, Number(claim.token));
        return version === undefined ? undefined : String(version);
      },
    });
  }

  /** The lease this pass writes now. */
  lease(): NonNullable<Subscription['lease']> {
    return { owner: this.#owner, until: Date.now() + this.#leaseMs };
  }

  /** Whether another runner's lease on `sub` still runs. */
  heldByAnother(sub: Subscription): boolean {
    return (
      sub.lease !== undefined && sub.lease.owner !== this.#owner && sub.lease.until > Date.now()
    );
  }

  /**
   * Claims `sub` (read at `version`): its lease written by compare-and-set, then held
   * (renewed by the holder) until `letGo`. Throws `LostClaim` when another writer came first.
   */
  async claim(sub: Subscription, version: number): Promise<SubscriptionClaim> {
    sub.lease = this.lease();
    const written = await this.#store.put(sub, version);
    if (written === undefined) throw new LostClaim(sub.key);
    const held = this.#holder.hold(sub.key, String(written));
    return new SubscriptionClaim(held, this.#holder, this.#owner, this.#leaseMs);
  }
}

/** One subscription held by a pass. */
export class SubscriptionClaim {
  readonly #held: HeldClaim;
  readonly #holder: ClaimHolder;
  readonly #owner: string;
  readonly #leaseMs: number;

  constructor(held: HeldClaim, holder: ClaimHolder, owner: string, leaseMs: number) {
    this.#held = held;
    this.#holder = holder;
    this.#owner = owner;
    this.#leaseMs = leaseMs;
  }

  /**
   * Writes `sub` (its lease extended while it is this pass's) with `write`, a
   * compare-and-set on the version this pass last wrote, after any renewal in progress;
   * throws `LostClaim` once the claim is lost (taken over, or lapsed unrenewed).
   */
  async save(sub: Subscription, write: Write): Promise<void> {
    try {
      await this.#held.write(async (token) => {
        const until = Date.now() + this.#leaseMs;
        if (sub.lease?.owner === this.#owner) sub.lease = { owner: this.#owner, until };
        const version = await write(sub, Number(token));
        if (version === undefined) {
          this.#held.lose('subscription changed by another writer');
          throw new LostClaim(sub.key);
        }
        this.#held.renewed(String(version), sub.lease ? until : this.#held.leaseUntil);
      });
    } catch (error) {
      if (error instanceof LostClaim || !this.#held.lost) throw error;
      throw new LostClaim(sub.key);
    }
  }

  /** Stops renewing it (after a renewal in progress). */
  letGo(): Promise<void> {
    return this.#holder.letGo(this.#held);
  }
}
