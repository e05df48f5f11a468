import type { RateClass, SharedRateBudget } from 'momo-partner-sdk';
import { expect } from 'vitest';
// The tenants entry (momo-partner-sdk/tenants) is registered by the tenant layer's branch.
import { tenantRateBudget } from '../../src/tenants/budget';
import { ARRIVAL_JITTER_MS, mostInWindow } from './sliding-window';

/** Per key and all keys together: each binds (3 keys x 4 > 10). */
export const PER_KEY = 4;
export const TOTAL = 10;
const KEYS = ['key-a', 'key-b', 'key-c'];
const EACH = 12;
/** The margin the client passes (SAFETY_MARGIN_MS + LATE_MS, about); the count allows the same. */
const MARGIN_MS = 30;

/**
 * Reserves EACH calls of `kind` for each of three tenants' keys at once, through their
 * tenant budgets on `shared`, and returns the moments by key. Counted in sliding seconds
 * less the jitter of when each answer was read (the moments are handed back on this
 * process's clock from the store's).
 */
export async function reserveForThreeKeys(shared: SharedRateBudget, kind: RateClass = 'create') {
  const budgets = KEYS.map((subscriptionKey) => {
    const budget = tenantRateBudget(shared, {
      subscriptionKey,
      baseUrl: 'https://sandbox.momo.test/',
      globalLimits: kind === 'create' ? { createRate: TOTAL } : { lookupRate: TOTAL },
    });
    if (budget === undefined) throw new Error('no budget');
    return budget;
  });
  const byKey = await Promise.all(
    budgets.map((budget) =>
      Promise.all(Array.from({ length: EACH }, () => budget.reserve(kind, PER_KEY, MARGIN_MS))),
    ),
  );
  return byKey;
}

/** Never more than PER_KEY of a key, nor TOTAL of all keys, in any sliding second; each cap reached. */
export function expectNestedCaps(byKey: number[][]): void {
  const window = 1_000 - ARRIVAL_JITTER_MS;
  for (const moments of byKey) {
    expect(moments.length).toBeGreaterThanOrEqual(EACH);
    expect(mostInWindow(moments, window)).toBeLessThanOrEqual(PER_KEY);
  }
  const all = byKey.flat();
  expect(mostInWindow(all, window)).toBeLessThanOrEqual(TOTAL);
  // Both caps bind: the keys together reach TOTAL, which they could not under PER_KEY alone.
  expect(mostInWindow(all, 1_000 + MARGIN_MS + ARRIVAL_JITTER_MS)).toBeGreaterThan(PER_KEY);
}
