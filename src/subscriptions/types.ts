import type {
  Subscription,
  SubscriptionCharge,
  SubscriptionStatus,
  SubscriptionStore,
} from '../contracts/subscription-store';
import type { Party } from '../schemas/common';

/** What `new Subscriptions(momo, options)` takes. */
export interface SubscriptionsOptions {
  /** Where plans and subscriptions live: `memorySubscriptionStore()`, `fileSubscriptionStore(dir)`. */
  store: SubscriptionStore;
  /** At least 16 characters: the reference ids are derived from it (keep it, as a batch's). */
  secret: string;
  /** The time (epoch ms); default `Date.now`. In tests: `() => sim.clock.now()`. */
  now?: (() => number) | undefined;
  /** The payee of the invoices of plans with `invoiceFallback: true`. */
  invoicePayee?: Party | undefined;
  /** How long a pass awaits a charge's outcome before moving on (default 30 000 ms; 0: one lookup). */
  waitMs?: number | undefined;
  /** When a pending mandate, charge or invoice is looked at again (default 60 000 ms of `now`). */
  recheckMs?: number | undefined;
  /** How many subscriptions a pass works on at once (default 8). */
  concurrency?: number | undefined;
  /**
   * How long a runner's claim on a subscription lasts unrenewed, in real time (default
   * 15 000 ms, the kernel's lease): renewed at a third of it while a pass works on the
   * subscription; a runner that dies lets its subscriptions go this long after.
   */
  leaseMs?: number | undefined;
}

/** A charge that became final (or an invoice sent), with its subscription's key and status. */
export interface SubscriptionChargeEvent extends SubscriptionCharge {
  key: string;
  /** The subscription's tenant (`momo-partner-sdk/tenants`), when a tenant's runner charged it. */
  tenant?: string;
  /** The subscription's status after it. */
  subscriptionStatus: SubscriptionStatus;
}

/** What `subs.runDue()` takes. */
export interface RunDueOptions {
  /** The pass's time (default the `now` option's). */
  now?: Date | number | undefined;
  /** As `start({ onCharge })`: each charge's outcome, in the store's transaction or after it. */
  onCharge?: SubscriptionRunnerOptions['onCharge'];
}

/** What one `runDue` pass did. */
export interface RunDueReport {
  /** Subscriptions due by `now` that the pass worked on. */
  processed: number;
  /** Due, but held by another runner (or changed under this one): left to it. */
  skipped: number;
  /** Charges that ended (or were invoiced) in this pass. */
  charges: SubscriptionChargeEvent[];
  counts: { successful: number; failed: number; invoiced: number };
  /** Subscriptions whose pass failed (e.g. the provider unreachable), with why: tried again next pass. */
  errors: { key: string; error: string }[];
}

/** What `subs.start()` takes. */
export interface SubscriptionRunnerOptions {
  /**
   * Runs for each charge whose outcome (SUCCESSFUL, FAILED, paid or failed by its invoice)
   * a pass records: with a store that has transactions (PostgreSQL) in the one that
   * records it, `tx` its client (your update and the outcome commit together; a throw
   * rolls both back, and a later pass records the outcome and runs this again); elsewhere
   * after it is recorded, `tx` undefined (a throw leaves the charge marked `delivered:
   * false`, and the next pass runs this again). At least once per outcome: make it
   * idempotent. A throw is in the pass's `errors` (`onCharge: ...`). On PostgreSQL, type
   * `tx` as your client: `onCharge: async (charge, tx?: pg.PoolClient) => { ... }`.
   */
  onCharge?(charge: SubscriptionChargeEvent, tx?: unknown): Promise<void> | void;
  /** Time between passes (real time, default 5 000 ms). */
  intervalMs?: number | undefined;
  /** Each pass's report. */
  onPass?: ((report: RunDueReport) => void) | undefined;
}

/** A loop of `runDue` passes; `stop()` ends it after the pass in flight. */
export interface SubscriptionRunner {
  /** Starts no new pass; resolves once the pass in flight has ended. */
  stop(): Promise<void>;
}

export type { Subscription };
