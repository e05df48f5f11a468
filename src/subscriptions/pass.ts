import type { ClientSurface } from '../client-surface';
import type {
  Subscription,
  SubscriptionCharge,
  SubscriptionPlan,
  SubscriptionStore,
} from '../contracts/subscription-store';
import { forEachLimited } from '../payments/concurrency-limit';
import { ownerId } from '../payments/ids';
import { type SubscriptionClaim, SubscriptionClaims } from './claim';
import { LostClaim, type StepContext } from './context';
import {
  deliverAfter,
  eventOf,
  markOwed,
  OnChargeFailed,
  putNotifying,
  unnotified,
} from './notify';
import { step } from './step';
import type { RunDueReport, SubscriptionChargeEvent, SubscriptionRunnerOptions } from './types';
import { watchDueAt } from './unanswered';

/** What a pass needs of its subscriptions. */
export interface PassContext {
  momo: ClientSurface;
  store: SubscriptionStore;
  secret: string;
  waitMs: number;
  recheckMs: number;
  concurrency: number;
  /** How long a runner's claim on a subscription lasts unrenewed (real time). */
  leaseMs: number;
}

/** Keys read from the due index at a time. */
const PAGE = 1000;

/**
 * One pass at `now`: the due index read page by page (only the subscriptions due, never
 * all of them), each due subscription claimed (a lease written by compare-and-set: one
 * runner at a time), brought up to date by `step`, and let go. `onCharge` runs at least
 * once per outcome: in the store's transaction that records it (`putInTransaction`), or
 * after it is recorded with the charge marked `delivered: false` until it returned.
 * `concurrency` subscriptions are worked on at once, without a barrier between pages: the
 * next page is read while the last of this one are still in flight, so that one slow
 * charge never holds the others (nor the client's admission stage) idle.
 */
export async function runPass(
  pass: PassContext,
  now: number,
  onCharge: SubscriptionRunnerOptions['onCharge'],
): Promise<RunDueReport> {
  const report: RunDueReport = {
    processed: 0,
    skipped: 0,
    charges: [],
    counts: { successful: 0, failed: 0, invoiced: 0 },
    errors: [],
  };
  const claims = new SubscriptionClaims(pass.store, ownerId('subscription'), pass.leaseMs);
  const plans = new Map<string, Promise<SubscriptionPlan | undefined>>();
  const due = new DueQueue(pass.store, now);
  // The kernel's limiter: `concurrency` subscriptions at once, the next key taken as one ends.
  await forEachLimited(
    pass.concurrency,
    () => due.next(),
    (key) => one(pass, now, claims, key, plans, report, onCharge),
  );
  due.rethrow();
  return report;
}

/**
 * The keys of a pass, read from the due index a page at a time: the next page is read
 * once every key read is handed out (the workers still on theirs go on meanwhile), each
 * key handed out once (the keys in flight, still due, are left out of later pages). A read
 * that gives fewer keys than it asked for gave every key due: the pass reads no more (a
 * subscription made due while it runs is the next pass's).
 */
class DueQueue {
  readonly #store: SubscriptionStore;
  readonly #now: number;
  readonly #seen = new Set<string>();
  #queue: string[] = [];
  #head = 0;
  #reading: Promise<void> | undefined;
  #done = false;
  #failure: { error: unknown } | undefined;

  constructor(store: SubscriptionStore, now: number) {
    this.#store = store;
    this.#now = now;
  }

  /** The next key, or undefined once the index has no key due that was not handed out. */
  async next(): Promise<string | undefined> {
    for (;;) {
      if (this.#head < this.#queue.length) return this.#queue[this.#head++];
      if (this.#done) return undefined;
      this.#read();
      await this.#reading;
    }
  }

  /** A failed read of the index fails the pass (after the keys in flight are done). */
  rethrow(): void {
    if (this.#failure) throw this.#failure.error;
  }

  #read(): void {
    this.#reading ??= this.#page().then(
      () => {
        this.#reading = undefined;
      },
      (error: unknown) => {
        this.#failure = { error };
        this.#done = true;
        this.#reading = undefined;
      },
    );
  }

  async #page(): Promise<void> {
    // One key more than a page asked for: fewer back means nothing else is due (no read more).
    const limit = PAGE + this.#seen.size;
    const keys = await this.#store.due(this.#now, limit + 1);
    const fresh = keys.filter((key) => !this.#seen.has(key));
    if (fresh.length === 0 || keys.length <= limit) this.#done = true;
    for (const key of fresh) this.#seen.add(key);
    this.#queue = fresh;
    this.#head = 0;
  }
}

async function one(
  pass: PassContext,
  now: number,
  claims: SubscriptionClaims,
  key: string,
  plans: Map<string, Promise<SubscriptionPlan | undefined>>,
  report: RunDueReport,
  onCharge: SubscriptionRunnerOptions['onCharge'],
): Promise<void> {
  const stored = await pass.store.get(key);
  if (!stored || stored.subscription.dueAt === undefined || stored.subscription.dueAt > now) return;
  const sub = stored.subscription;
  if (claims.heldByAnother(sub)) {
    report.skipped += 1;
    return;
  }
  if (!plans.has(sub.plan)) plans.set(sub.plan, pass.store.getPlan(sub.plan));
  const plan = await plans.get(sub.plan);
  if (!plan) {
    report.errors.push({ key, error: `no plan ${JSON.stringify(sub.plan)}` });
    return;
  }
  let claim: SubscriptionClaim | undefined;
  const changed: SubscriptionCharge[] = []; // outcomes not written yet
  const recorded: SubscriptionChargeEvent[] = [];
  const write = (s: Subscription, expected: number | undefined) =>
    putNotifying(pass.store, s, expected, onCharge);
  const save = async (s: Subscription) => {
    s.updatedAt = now;
    if (!claim) throw new LostClaim(key);
    await claim.save(s, write);
    for (const charge of changed.splice(0)) recorded.push(eventOf(s, charge));
  };
  const ctx: StepContext = {
    momo: pass.momo,
    secret: pass.secret,
    now,
    waitMs: pass.waitMs,
    recheckMs: pass.recheckMs,
    save,
    changed: (_s, charge) => {
      if (onCharge) markOwed(charge); // cleared once onCharge returned (or committed)
      changed.push(charge);
    },
  };
  try {
    sub.updatedAt = now;
    claim = await claims.claim(sub, stored.version); // renewed while the step works, until let go
    await step(ctx, sub, plan);
    // Without a transaction: onCharge now, once the outcomes are recorded (marked).
    const threw =
      onCharge && !pass.store.putInTransaction ? await deliverAfter(sub, onCharge) : undefined;
    if (threw) report.errors.push({ key, error: `onCharge: ${threw.message}` });
    if (unnotified(sub).length > 0) sub.dueAt = Math.min(sub.dueAt ?? Infinity, now + 1);
    else if (sub.status === 'CANCELLED' || sub.status === 'ENDED')
      sub.dueAt = watchDueAt(sub, now, pass.recheckMs); // none, unless a mandate is unanswered
    await claim.letGo();
    sub.lease = undefined;
    await save(sub);
  } catch (error) {
    await claim?.letGo();
    tally(report, recorded);
    if (error instanceof LostClaim) {
      report.skipped += 1;
      return;
    }
    report.errors.push({
      key,
      error:
        error instanceof OnChargeFailed
          ? `onCharge: ${error.message}`
          : error instanceof Error
            ? `${error.name}: ${error.message}`
            : String(error),
    });
    await letGo(pass.store, key, sub.lease?.owner);
    return;
  }
  report.processed += 1;
  tally(report, recorded);
}

/** The outcomes a subscription's pass recorded, into the report. */
function tally(report: RunDueReport, recorded: SubscriptionChargeEvent[]): void {
  for (const event of recorded) {
    report.charges.push(event);
    if (event.invoice?.status === 'PENDING') report.counts.invoiced += 1;
    else if (event.status === 'SUCCESSFUL' || event.invoice?.status === 'SUCCESSFUL')
      report.counts.successful += 1;
    else report.counts.failed += 1;
  }
}

/** Clears this pass's lease after a failure, so that the next pass need not wait for it to lapse. */
async function letGo(
  store: SubscriptionStore,
  key: string,
  owner: string | undefined,
): Promise<void> {
  if (owner === undefined) return;
  try {
    const stored = await store.get(key);
    if (stored?.subscription.lease?.owner !== owner) return;
    await store.put({ ...stored.subscription, lease: undefined }, stored.version);
  } catch {
    // The lease lapses by itself.
  }
}
