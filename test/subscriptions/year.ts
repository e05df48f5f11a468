import type { SubscriptionStore } from 'momo-partner-sdk';
import { Subscriptions } from 'momo-partner-sdk/subscriptions';
import { expect } from 'vitest';
import { DAY, gymMonthly, payer, requestsToPay, SECRET, setup, T0 } from './support';

/**
 * A year of a monthly plan on `store`: three members, two runners on the same store (as
 * two instances would be) each running `runDue` every simulated day at once. Each of the
 * 13 periods (31 January 2026 to 31 January 2027) is charged once per member, and paid.
 */
export async function aYearOn(store: SubscriptionStore): Promise<void> {
  const world = setup({ store });
  const other = new Subscriptions(world.momo, {
    store,
    secret: SECRET,
    now: () => world.sim.clock.now(),
  });
  await world.subs.plan(gymMonthly);
  const keys = ['member-1', 'member-2', 'member-3'];
  for (const [i, key] of keys.entries()) {
    await world.subs.subscribe({
      key,
      plan: 'gym-monthly',
      payer: payer(`23324455560${i}`),
      startAt: new Date(T0),
      mandateDays: 400,
    });
  }
  await Promise.all([world.subs.runDue(), other.runDue()]);
  for (let day = 0; day < 365; day++) {
    world.sim.clock.advance(DAY);
    await Promise.all([world.subs.runDue(), other.runDue()]);
  }
  const perTag = requestsToPay(world.sim);
  for (const key of keys) {
    const sub = await other.get(key);
    expect(sub?.status).toBe('ACTIVE');
    expect(sub?.period).toBe(13);
    expect(sub?.charges.map((c) => c.status)).toEqual(Array(13).fill('SUCCESSFUL'));
    for (let period = 0; period < 13; period++) {
      expect(perTag.get(`${key}/${period}`)).toEqual({ created: 1, successful: 1 });
    }
  }
  expect(perTag.size).toBe(39);
  // Sent once each: the other runner never sent a period again (no 409 to fall back on).
  const sends = world.sim.requests.filter(
    (r) => r.method === 'POST' && r.path === '/collection/v1_0/requesttopay',
  );
  expect(sends).toHaveLength(39);
  // Nothing is due before the next period: the index moved on with every write.
  expect(await store.due(world.sim.clock.now(), 10)).toEqual([]);
}
