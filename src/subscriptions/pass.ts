import type { ClientSurface } from '../client-surface';
import type {
  Subscription,
  SubscriptionCharge,
  SubscriptionPlan,
  SubscriptionStore,
} from '../contracts/subscription-store';
import { Claim } from './claim';
import { LostClaim, type StepContext } from './context';
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
 * runner at a time), brought up to date by `step`, and let go. `onCharge` runs once its
 * outcome is recorded.
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
  const save = (s: Subscription) => {
    s.updatedAt = now;
    return claim.save(s);
  };
  const events: SubscriptionCharge[] = [];
  const ctx: StepContext = {
    momo: pass.momo,
    secret: pass.secret,
    now,
    waitMs: pass.waitMs,
    recheckMs: pass.recheckMs,
    save,
    changed: (_s, charge) => events.push(structuredClone(charge)),
  };
  try {
    sub.lease = claim.lease();
    await save(sub);
    claim.hold(); // renewed while the step works (a charge awaited), until let go
    await step(ctx, sub, plan);
    claim.release();
    sub.lease = undefined;
    await save(sub);
  } catch (error) {
    claim.release();
    if (error instanceof LostClaim) {
      report.skipped += 1;
      return;
    }
    report.errors.push({
      key,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    await letGo(pass.store, key, owner);
    return;
  }
  report.processed += 1;
  for (const charge of events) {
    const event: SubscriptionChargeEvent = { key, ...charge, subscriptionStatus: sub.status };
    report.charges.push(event);
    if (charge.invoice?.status === 'PENDING') report.counts.invoiced += 1;
    else if (charge.status === 'SUCCESSFUL' || charge.invoice?.status === 'SUCCESSFUL')
      report.counts.successful += 1;
    else report.counts.failed += 1;
    try {
      await onCharge?.(event);
    } catch (error) {
      report.errors.push({
        key,
        error: `onCharge: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
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
