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

/**
 * What a payer agreed to: the amount, currency and interval a mandate's message stated
 * (docs/subscriptions.md, "Terms fixed at approval"). A charge under the mandate is never
 * above them.
 */
export interface SubscriptionTerms {
  /** A positive decimal string. */
  amount: string;
  currency: string;
  every: PlanInterval;
}

/**
 * The partner's arrears policy (docs/subscriptions.md): how many held periods a late approval
 * charges in one pass (`catchUp`, default all), and what an unpaid invoice does to the
 * subscription (`unpaid`: `'arrears'`, the default, leaves the period unpaid and listed in
 * arrears and goes on billing; `'cancel'` cancels the subscription).
 */
export interface ArrearsPolicy {
  catchUp?: number | 'all' | undefined;
  unpaid?: 'arrears' | 'cancel' | undefined;
}

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
  /** The note the payer sees on the mandate (after the terms it states) and each charge. */
  payerMessage?: string | undefined;
  /** What a late approval and an unpaid invoice do (default: every held period, arrears). */
  arrears?: ArrearsPolicy | undefined;
  /**
   * The tenant whose runner defined it (`momo-partner-sdk/tenants`); absent for a runner of
   * no tenant. Another tenant's runner neither reads nor redefines it.
   */
  tenant?: string | undefined;
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
  /**
   * The terms its `payerMessage` stated when it was asked for (absent on a mandate asked
   * for before terms were kept: the plan's then).
   */
  terms?: SubscriptionTerms | undefined;
  /** The period from which it applies (a plan change's mandate: the first after its approval). */
  fromPeriod?: number | undefined;
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
  /**
   * What it asks for: the period's amount and currency, fixed when the period was first
   * charged (its retries, a re-send and its invoice keep them). Absent only on charges
   * recorded before amounts were kept.
   */
  amount?: string | undefined;
  currency?: string | undefined;
  /** Epoch ms this attempt was made (kept: an outcome or an invoice adds its own time). */
  at: number;
  /** Epoch ms its outcome was recorded. */
  settledAt?: number | undefined;
  /** The invoice sent once the retries were spent (plan's `invoiceFallback`), with its own times. */
  invoice?:
    | {
        referenceId: string;
        status: SubscriptionChargeStatus;
        reason?: string;
        /** Epoch ms it was sent. */
        at?: number;
        /** Epoch ms it was paid or failed. */
        settledAt?: number;
      }
    | undefined;
  /**
   * `false`: the outcome is recorded but the runner's `onCharge` has not returned for it
   * yet (a store without `putInTransaction` records it so, runs `onCharge`, then records
   * it again without the mark): the kernel's one mark (`deliverAtLeastOnce`). Keep it as
   * given: the next pass runs `onCharge` for it again. Absent otherwise.
   */
  delivered?: false | undefined;
  /**
   * The same mark as written by earlier versions: still read (the next pass runs
   * `onCharge` for it and clears it), never written. Keep it as given.
   */
  notified?: false | undefined;
}

/** A subscription, as `subs.get()` gives it and the store keeps it. */
export interface Subscription {
  key: string;
  /**
   * Its identity: derived from (key, plan, payer, startAt) and the secret when it was
   * subscribed, and part of every reference id derived for it, so that a key used again
   * for another subscription (after a cancel, a lost store, a migration) never meets an
   * earlier subscription's mandates or charges. Absent on a record of an earlier version
   * (its ids derived from the key alone, as they were).
   */
  id?: string | undefined;
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
  /** A plan change waiting for its mandate's approval (`subs.changePlan`): applied from `fromPeriod`. */
  change?: { plan: string; from: number; mandate: SubscriptionMandate } | undefined;
  /** The mandates it replaced (renewed or changed): `cancel` cancels them too. */
  replaced?: SubscriptionMandate[] | undefined;
  /** `subs.pause(key, { until })`: the periods starting from `from` and before `until` (epoch ms) are skipped. */
  pause?: { from: number; until: number } | undefined;
  /** Periods skipped by a pause: neither charged nor in arrears. */
  skipped?: number[] | undefined;
  /** Periods left unpaid (their invoice unpaid, the plan's arrears policy going on). */
  arrears?: number[] | undefined;
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
  /**
   * Epoch ms a pass first found it stopped with a mandate the payer had not answered:
   * such a mandate is looked at (and cancelled once approved) until `mandateDays` after
   * this (docs/assumptions.md ST10). Absent otherwise.
   */
  stoppedAt?: number | undefined;
  /** Which runner holds it until when (epoch ms): one runner works on a subscription at a time. */
  lease?: { owner: string; until: number } | undefined;
  /**
   * The tenant whose client charges it (`momo-partner-sdk/tenants`), stamped by that
   * tenant's runner; absent for a runner of no tenant. In a store tenants share, a runner
   * reads, charges and reports only the subscriptions of its own client's tenant.
   */
  tenant?: string | undefined;
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
  /** Only this tenant's (`null`: only those of no tenant); absent: every tenant's. */
  tenant?: string | null | undefined;
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
   * least once by the charge's `delivered: false` mark). As `put`, in one transaction of the
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
  /**
   * Keys whose `dueAt` is at or before `now`, soonest first, at most `limit`. With
   * `tenant`, only that tenant's subscriptions (`null`: only those of no tenant); a store
   * that ignores it still works (a runner skips the others' records), only slower.
   */
  due(now: number, limit: number, tenant?: string | null): Promise<string[]>;
  /** The subscriptions the filter names (by status, due before a time, at most a limit). */
  list(filter?: SubscriptionFilter): Promise<Subscription[]>;
}
