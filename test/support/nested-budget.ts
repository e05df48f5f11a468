import type { RateClass, SharedRateBudget } from 'momo-partner-sdk';
import { tenantRateBudget } from 'momo-partner-sdk/tenants';
import { expect } from 'vitest';
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

/** How late the slow instance of `reserveInTurns` hears each answer (a busy event loop, a slow link). */
export const LATE_ANSWER_MS = 40;
/** Less than LATE_ANSWER_MS: the margin alone cannot hide the slow instance's lateness. */
const TURN_MARGIN_MS = 5;

/**
 * Two instances on one store take turns, PER_KEY reservations each, three times; one of
 * them (`late`) hears every answer LATE_ANSWER_MS after the store gave it, so it maps
 * the store's moments that much later onto its clock than `quick` does. The moments, as
 * each instance would send its calls: never PER_KEY + 1 in a sliding second only if the
 * store counts each reservation as late as its instance may send it (docs/assumptions.md
 * TR6).
 */
export async function reserveInTurns(late: SharedRateBudget, quick: SharedRateBudget) {
  const moments: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const budget of [late, quick]) {
      for (let i = 0; i < PER_KEY; i++) {
        moments.push(await budget.reserve('create', PER_KEY, TURN_MARGIN_MS));
      }
    }
  }
  return moments;
}

/** A store's answers heard `ms` late: what `reserveInTurns`' slow instance runs on. */
export async function heardLate<T>(answer: Promise<T>, ms = LATE_ANSWER_MS): Promise<T> {
  const value = await answer;
  await new Promise((resolve) => setTimeout(resolve, ms));
  return value;
}

/** How late `reserveAllAtOnce`'s instance hears each answer: a spread far wider than the spacing. */
export const SLOW_ANSWER_MS = 200;

/**
 * 3 x PER_KEY reservations asked for at once by one instance whose answers come back
 * SLOW_ANSWER_MS late (a loaded machine), once its clock is bounded. The spread belongs
 * to the window rule only: counted in the even spacing too, every two reservations were
 * 1000 / PER_KEY + a spread apart, and a loaded fleet made a few calls a second whatever
 * its rate (docs/assumptions.md TR7).
 */
export async function reserveAllAtOnce(slow: SharedRateBudget) {
  await slow.reserve('lookup', PER_KEY, TURN_MARGIN_MS);
  return Promise.all(
    Array.from({ length: 3 * PER_KEY }, () => slow.reserve('create', PER_KEY, TURN_MARGIN_MS)),
  );
}

/** Never PER_KEY + 1 in a sliding second, and PER_KEY within one even spacing's span: the window used. */
export function expectWindowUsed(moments: number[]): void {
  expect(moments).toHaveLength(3 * PER_KEY);
  expect(mostInWindow(moments, 1_000)).toBeLessThanOrEqual(PER_KEY);
  const span = ((PER_KEY - 1) * 1_000) / PER_KEY;
  expect(mostInWindow(moments, span + ARRIVAL_JITTER_MS)).toBe(PER_KEY);
}
