import type { ClientSurface } from '../client-surface';
import type {
  Subscription,
  SubscriptionCharge,
  SubscriptionPlan,
  SubscriptionStore,
} from '../contracts/subscription-store';
import { Claim } from './claim';
import { LostClaim, type StepContext } from './context';
import { deliverAfter, eventOf, OnChargeFailed, putNotifying, unnotified } from './notify';
import { step } from './step';
import type { RunDueReport, SubscriptionChargeEvent, SubscriptionRunnerOptions } from './types';

/** What a pass needs of its subscriptions. */
export interface PassContext {
  momo: ClientSurface;
  store: SubscriptionStore;
  secret: string;
  waitMs: number;
  recheckMs: number;
  concurrency: number;
}

/** Keys read from the due index at a time. */
const PAGE = 1000;

/**
 * One pass at `now`: the due index read page by page (only the subscriptions due, never
 * all of them), each due subscription claimed (a lease written by compare-and-set: one
 * runner at a time), brought up to date by `step`, and let go. `onCharge` runs at least
 * once per outcome: in the store's transaction that records it (`putInTransaction`), or
 * after it is recorded with the charge marked `notified: false` until it returned.
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
  const owner = globalThis.crypto.randomUUID();
  const plans = new Map<string, Promise<SubscriptionPlan | undefined>>();
  const seen = new Set<string>();
  for (;;) {
    const keys = (await pass.store.due(now, PAGE + seen.size)).filter((key) => !seen.has(key));
    if (keys.length === 0) break;
    for (const key of keys) seen.add(key);
    let next = 0;
    const worker = async () => {
      while (next < keys.length) {
        const key = keys[next++] as string;
        await one(pass, now, owner, key, plans, report, onCharge);
      }
    };
    await Promise.all(Array.from({ length: Math.min(pass.concurrency, keys.length) }, worker));
  }
  return report;
}

async function one(
  pass: PassContext,
  now: number,
  owner: string,
  key: string,
  plans: Map<string, Promise<SubscriptionPlan | undefined>>,
  report: RunDueReport,
  onCharge: SubscriptionRunnerOptions['onCharge'],
): Promise<void> {
  const stored = await pass.store.get(key);
  if (!stored || stored.subscription.dueAt === undefined || stored.subscription.dueAt > now) return;
  const sub = stored.subscription;
  if (sub.lease && sub.lease.owner !== owner && sub.lease.until > Date.now()) {
    report.skipped += 1;
    return;
  }
  if (!plans.has(sub.plan)) plans.set(sub.plan, pass.store.getPlan(sub.plan));
  const plan = await plans.get(sub.plan);
  if (!plan) {
    report.errors.push({ key, error: `no plan ${JSON.stringify(sub.plan)}` });
    return;
  }
  const claim = new Claim(pass.store, key, owner, stored.version);
  const changed: SubscriptionCharge[] = []; // outcomes not written yet
  const recorded: SubscriptionChargeEvent[] = [];
  const write = (s: Subscription, expected: number | undefined) =>
    putNotifying(pass.store, s, expected, onCharge);
  const save = async (s: Subscription) => {
    s.updatedAt = now;
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
      if (onCharge) charge.notified = false; // cleared once onCharge returned (or committed)
      changed.push(charge);
    },
  };
  try {
    sub.lease = claim.lease();
    await save(sub);
    claim.hold(); // renewed while the step works (a charge awaited), until let go
    await step(ctx, sub, plan);
    // Without a transaction: onCharge now, once the outcomes are recorded (marked).
    const threw =
      onCharge && !pass.store.putInTransaction ? await deliverAfter(sub, onCharge) : undefined;
    if (threw) report.errors.push({ key, error: `onCharge: ${threw.message}` });
    if (unnotified(sub).length > 0) sub.dueAt = Math.min(sub.dueAt ?? Infinity, now + 1);
    else if (sub.status === 'CANCELLED' || sub.status === 'ENDED') sub.dueAt = undefined;
    claim.release();
    sub.lease = undefined;
    await save(sub);
  } catch (error) {
    claim.release();
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
    await letGo(pass.store, key, owner);
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
async function letGo(store: SubscriptionStore, key: string, owner: string): Promise<void> {
  try {
    const stored = await store.get(key);
    if (stored?.subscription.lease?.owner !== owner) return;
    await store.put({ ...stored.subscription, lease: undefined }, stored.version);
  } catch {
    // The lease lapses by itself.
  }
}
