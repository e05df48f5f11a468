import type { SubscriptionStore } from 'momo-partner-sdk';
import {
  memorySubscriptionStore,
  type PlanInput,
  Subscriptions,
} from 'momo-partner-sdk/subscriptions';
import { createSimulator, type Simulator } from 'momo-partner-sdk/testing';

export const DAY = 86_400_000;
/** 31 January 2026, 09:00 UTC: monthly periods clamp to 28 February, then 31 March. */
export const T0 = Date.UTC(2026, 0, 31, 9);
export const SECRET = 'subscriptions-test-secret-0123456789';

export const gymMonthly: PlanInput = {
  id: 'gym-monthly',
  amount: '50',
  currency: 'EUR',
  every: 'month',
  retry: ['1d', '3d'],
};

export const payer = (partyId: string) => ({ partyIdType: 'MSISDN' as const, partyId });

/** A simulator on a clock starting at T0, a client on it, and subscriptions taking its time. */
export function setup(
  options: { settleMs?: number; store?: SubscriptionStore; waitMs?: number } = {},
) {
  // Tokens outlive the simulated years: each request is sent once, not again after a 401.
  const sim = createSimulator({
    settleMs: options.settleMs ?? 0,
    clock: { now: () => T0 },
    tokenTtlSeconds: 20 * 365 * 86_400,
  });
  const momo = sim.client();
  let store = options.store ?? memorySubscriptionStore();
  const make = () =>
    new Subscriptions(momo, {
      store,
      secret: SECRET,
      now: () => sim.clock.now(),
      waitMs: options.waitMs ?? 5_000,
      recheckMs: 60_000,
      invoicePayee: payer('233244000001'),
    });
  let subs = make();
  return {
    sim,
    momo,
    get subs() {
      return subs;
    },
    /** The store lost: an empty one in its place. */
    replaceStore(next: SubscriptionStore) {
      store = next;
      subs = make();
    },
  };
}

/** Requests to pay at the simulator, per caller tag (`<key>/<period>`). */
export function requestsToPay(sim: Simulator) {
  const byTag = new Map<string, { created: number; successful: number }>();
  for (const tx of sim.transactions) {
    if (tx.operation !== 'collection.requestToPay') continue;
    const tag = tx.tag ?? '(untagged)';
    const counts = byTag.get(tag) ?? { created: 0, successful: 0 };
    counts.created += 1;
    if (tx.status === 'SUCCESSFUL') counts.successful += 1;
    byTag.set(tag, counts);
  }
  return byTag;
}

/** Moves the simulator's clock a day at a time, with a `runDue` pass each day. */
export async function runDays(world: { sim: Simulator; subs: Subscriptions }, days: number) {
  for (let d = 0; d < days; d++) {
    world.sim.clock.advance(DAY);
    await world.subs.runDue();
  }
}
