import type { SubscriptionStore } from 'momo-partner-sdk';
import {
  memorySubscriptionStore,
  Subscriptions,
  type SubscriptionsOptions,
} from 'momo-partner-sdk/subscriptions';
import { createSimulator } from 'momo-partner-sdk/testing';
import { DAY, payer, SECRET, T0 } from './support';

/**
 * A simulator on a clock starting at T0, a client on it, and `new Subscriptions(momo, ...)`
 * (the sub-path form) taking the simulator's time: what the tests written since the
 * drivers left the main entry use.
 */
export function world(
  options: Partial<SubscriptionsOptions> & { settleMs?: number; store?: SubscriptionStore } = {},
) {
  const { settleMs, store: given, ...rest } = options;
  const sim = createSimulator({
    settleMs: settleMs ?? 0,
    clock: { now: () => T0 },
    tokenTtlSeconds: 20 * 365 * 86_400,
  });
  const momo = sim.client();
  const store = given ?? memorySubscriptionStore();
  const make = (more: Partial<SubscriptionsOptions> = {}) =>
    new Subscriptions(momo, {
      store,
      secret: SECRET,
      now: () => sim.clock.now(),
      waitMs: 5_000,
      recheckMs: 60_000,
      invoicePayee: payer('233244000001'),
      ...rest,
      ...more,
    });
  const subs = make();
  /** `days` days, a pass at the end of each. */
  const days = async (n: number, on: Subscriptions = subs) => {
    const reports = [];
    for (let d = 0; d < n; d++) {
      sim.clock.advance(DAY);
      reports.push(await on.runDue());
    }
    return reports;
  };
  return { sim, momo, store, subs, make, days };
}
