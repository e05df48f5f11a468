import type { SharedRateBudget } from 'momo-partner-sdk';
import { expect } from 'vitest';

/** Long enough that no slow machine makes an unpaused reservation look paused. */
const PAUSE_MS = 60_000;
/** The store's clock mapped onto this process's may round a moment a little early. */
const ROUNDING_MS = 5;

/**
 * docs/assumptions.md JE4, on one store through two instances (`a`, `b`: two processes'
 * budgets): a pause `a` records holds every reservation `b` makes of that class (and
 * `b` is told when it ends), and no other class or key. Compares moments, times nothing.
 */
export async function expectPauseShared(a: SharedRateBudget, b: SharedRateBudget): Promise<void> {
  const asked = Date.now();
  const end = asked + PAUSE_MS - ROUNDING_MS;
  await a.pause?.('create', PAUSE_MS);
  expect(await b.reserve('create', 10, 30)).toBeGreaterThanOrEqual(end);
  expect(b.pausedUntil?.('create')).toBeGreaterThanOrEqual(end);
  // Another class, and a key's own window: not paused.
  expect(await b.reserve('lookup', 10, 30)).toBeLessThan(end);
  expect(b.pausedUntil?.('lookup')).toBe(0);
  expect(await b.reserve('create', 10, 30, { id: 'key-b' })).toBeLessThan(end);
  // A key's pause (a tenant's 429) holds that key's window only.
  await a.pause?.('lookup', PAUSE_MS, { id: 'key-a' });
  expect(await b.reserve('lookup', 10, 30, { id: 'key-a' })).toBeGreaterThanOrEqual(end);
  expect(await b.reserve('lookup', 10, 30, { id: 'key-b', totalPerSecond: 20 })).toBeLessThan(end);
}
