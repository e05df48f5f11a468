import type { Party } from '../schemas/common';

/**
 * A subscription's state (docs/subscriptions.md): waiting for its mandate, collecting, behind after a
 * failed charge, stopped (by `cancel`, a refusal no retry can change, a declined mandate
 * or a spent schedule), or ended (its `endAt` reached).
 */
export type SubscriptionStatus = 'PENDING_MANDATE' | 'ACTIVE' | 'PAST_DUE' | 'CANCELLED' | 'ENDED';

/** A charge's (or its invoice's) status: the provider's, once final. */
export type SubscriptionChargeStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';

/** How often a plan charges: a calendar month (from `startAt`), a day, a week, or n days. */
export type PlanInterval = 'day' | 'week' | 'month' | { days: number };

/** A plan as the store keeps it (what `subs.plan()` was given, checked). */
export interface SubscriptionPlan {
  id: string;
  /** A positive decimal string. */
  amount: string;
  currency: string;
  every: PlanInterval;
  /** Delays after a charge FAILED for a reason worth retrying: `'1d'`, `'12h'`, `'30m'`. */
  retry: string[];
  /** Retries spent: an invoice the payer can pay (its payee, and how long it stays payable). */
  invoiceFallback?: { payee: Party; validityDays: number } | undefined;
  /** The note the payer sees on the mandate and each charge. */
  payerMessage?: string | undefined;
}

/** The pre-approval a subscription charges under. */
export interface SubscriptionMandate {
  /** The pre-approval's X-Reference-Id (derived from the key, the mandate's number and the secret). */
  referenceId: string;
  /** 0 for the first mandate, 1 for its first renewal... */
  number: number;
  status: 'PENDING' | 'APPROVED' | 'DECLINED' | 'EXPIRED' | 'CANCELLED';
  /** Epoch ms the provider's approval runs out (known once approved). */
  expiresAt?: number | undefined;
  /** The provider's reason code of a declined one. */
  reason?: string | undefined;
}

/** One attempt to collect one period. */
export interface SubscriptionCharge {
  /** 0 for the period starting at `startAt`, 1 for the next... */
  period: number;
  /** 1 for the first try of the period, 2 for its first retry... */
  attempt: number;
  /** The request to pay's X-Reference-Id, derived from (key, period, attempt) and the secret. */
  referenceId: string;
  status: SubscriptionChargeStatus;
  /** The provider's reason code of a FAILED one (or the SDK's, e.g. `TRANSACTION_MISMATCH`). */
  reason?: string | undefined;
  /** Epoch ms of its last change. */
  at: number;
  /** The invoice sent once the retries were spent (plan's `invoiceFallback`). */
  invoice?: { referenceId: string; status: SubscriptionChargeStatus; reason?: string } | undefined;
  /**
   * `false`: the outcome is recorded but the runner's `onCharge` has not returned for it
   * yet (a store without `putInTransaction` records it so, runs `onCharge`, then records
   * it again without the mark). Keep it as given: the next pass runs `onCharge` for it
   * again. Absent otherwise.
   */
  notified?: false | undefined;
}

/** A subscription, as `subs.get()` gives it and the store keeps it. */
export interface Subscription {
  key: string;
  /** The plan's id. */
  plan: string;
  payer: Party;
  status: SubscriptionStatus;
  /** Why it is PAST_DUE, CANCELLED or ENDED (a reason code, or `cancelled`). */
  reason?: string | undefined;
  /** Epoch ms: period 0 starts here. */
  startAt: number;
  /** Epoch ms: no period starts at or after this (then ENDED). */
  endAt?: number | undefined;
  /** Each pre-approval's validity, in days. */
  mandateDays: number;
  mandate: SubscriptionMandate;
  /** The next mandate, asked for 7 days before `mandate` expires. */
  renewal?: SubscriptionMandate | undefined;
  /** The period collected next (every period before it is paid or given up). */
  period: number;
  /** Epoch ms the next charge (or retry) is due; absent once stopped. */
  nextChargeAt?: number | undefined;
  /** Epoch ms `runDue` must look at it next (a charge, a mandate, a renewal); absent once stopped. */
  dueAt?: number | undefined;
  /** The charges, oldest first. */
  charges: SubscriptionCharge[];
  createdAt: number;
  updatedAt: number;
  /** Which runner holds it until when (epoch ms): one runner works on a subscription at a time. */
  lease?: { owner: string; until: number } | undefined;
}

/** A subscription read from a store, with the version a write must name. */
export interface StoredSubscription {
  subscription: Subscription;
  version: number;
}

/** What `list` selects. */
export interface SubscriptionFilter {
  status?: SubscriptionStatus | undefined;
  /** Only those due (`dueAt`) before this epoch ms. */
  dueBefore?: number | undefined;
  limit?: number | undefined;
}

/**
 * Where subscriptions live: plans, subscriptions under a version (compare-and-set), and a
 * due index (`due(now)` reads the subscriptions due, never every subscription).
 */
export interface SubscriptionStore {
  /** Stores a plan under its id (a plan of that id again replaces it). */
  putPlan(plan: SubscriptionPlan): Promise<void>;
  /** The plan of `id`, or undefined. */
  getPlan(id: string): Promise<SubscriptionPlan | undefined>;
  /** The subscription of `key` with its version, or undefined. */
  get(key: string): Promise<StoredSubscription | undefined>;
  /**
   * Writes `subscription` if the stored version is still `expected` (undefined: none may
   * be stored yet). Resolves with the new version, or undefined (nothing written) when
   * another writer came first. Keeps the due index on `subscription.dueAt`.
   */
  put(subscription: Subscription, expected: number | undefined): Promise<number | undefined>;
  /**
   * Optional (a store without it keeps working: `onCharge` then runs after the write, at
   * least once by the charge's `notified` mark). As `put`, in one transaction of the
   * store's that also runs `within(tx)`, `tx` the store's transaction handle (the
   * PostgreSQL store's: its pool client), after the write and before the commit: the
   * write and what `within` did commit together. A throw in `within` rolls both back and
   * is rethrown; when another writer came first, nothing is written, `within` is not run,
   * and it resolves with undefined.
   */
  putInTransaction?(
    subscription: Subscription,
    expected: number | undefined,
    within: (tx: unknown) => Promise<void>,
  ): Promise<number | undefined>;
  /** Keys whose `dueAt` is at or before `now`, soonest first, at most `limit`. */
  due(now: number, limit: number): Promise<string[]>;
  /** The subscriptions the filter names (by status, due before a time, at most a limit). */
  list(filter?: SubscriptionFilter): Promise<Subscription[]>;
}
