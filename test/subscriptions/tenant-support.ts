import { isValidationError, type SubscriptionStore } from 'momo-partner-sdk';
import { Subscriptions } from 'momo-partner-sdk/subscriptions';
import { expect } from 'vitest';
import type { TwoTenants } from '../support/two-tenants';
import { DAY, gymMonthly, payer, SECRET } from './support';

/**
 * Two tenants' subscriptions runners on one shared store (issue 40): each record and
 * charge carries its tenant; a key or plan id the other tenant holds is refused before
 * anything is asked of a payer; each runner charges, lists and reports its own alone,
 * and the provider sees each tenant's requests to pay under its own key only.
 */
export async function expectSubscriptionTenantsApart(
  two: TwoTenants,
  store: SubscriptionStore,
  other: SubscriptionStore = store,
): Promise<void> {
  const now = () => two.sim.clock.now();
  const runner = (momo: TwoTenants['acme'], s: SubscriptionStore) =>
    new Subscriptions(momo, { store: s, secret: SECRET, now, waitMs: 5_000, recheckMs: 60_000 });
  const acme = runner(two.acme, store);
  const zeta = runner(two.zeta, other);
  await acme.plan(gymMonthly);
  const plan = await zeta.plan(gymMonthly).catch((e: unknown) => e);
  expect(isValidationError(plan) && plan.field === 'id').toBe(true);
  await zeta.plan({ ...gymMonthly, id: 'zeta-gym' });
  const startAt = now();
  const a = await acme.subscribe({
    key: 'member-1',
    plan: 'gym-monthly',
    payer: payer('46733123999'),
    startAt,
  });
  expect(a.tenant).toBe('acme');
  const before = two.createdWith('zeta').length;
  const taken = await zeta
    .subscribe({ key: 'member-1', plan: 'zeta-gym', payer: payer('46733123998'), startAt })
    .catch((e: unknown) => e);
  expect(isValidationError(taken) && taken.field === 'key').toBe(true);
  expect(two.createdWith('zeta')).toHaveLength(before); // no mandate asked for it
  await zeta.subscribe({
    key: 'zeta-member-1',
    plan: 'zeta-gym',
    payer: payer('46733123998'),
    startAt,
  });
  expect(await zeta.get('member-1')).toBeUndefined();
  expect(await acme.get('zeta-member-1')).toBeUndefined();
  expect((await zeta.list()).map((s) => [s.key, s.tenant])).toEqual([['zeta-member-1', 'zeta']]);

  // Each pass charges its own tenant's subscription only, its charges stamped.
  const zetaPass = await zeta.runDue({ now: now() + DAY });
  const acmePass = await acme.runDue({ now: now() + DAY });
  expect(zetaPass.errors).toEqual([]);
  expect(acmePass.errors).toEqual([]);
  expect(zetaPass.charges.map((c) => [c.key, c.tenant, c.status])).toEqual([
    ['zeta-member-1', 'zeta', 'SUCCESSFUL'],
  ]);
  expect(acmePass.charges.map((c) => [c.key, c.tenant, c.status])).toEqual([
    ['member-1', 'acme', 'SUCCESSFUL'],
  ]);
  // At the provider: every request to pay under its own tenant's partner.
  const charged = two.sim.transactions
    .filter((t) => t.operation === 'collection.requestToPay')
    .map((t) => [t.partner, t.tag?.split('/')[0]]);
  expect(charged.sort()).toEqual([
    ['acme', 'member-1'],
    ['zeta', 'zeta-member-1'],
  ]);
  const report = await zeta.report({ from: startAt, to: startAt + 40 * DAY });
  expect(new Set(report.periods.map((p) => p.key))).toEqual(new Set(['zeta-member-1']));
}
