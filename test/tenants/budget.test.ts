import { inspect } from 'node:util';
import type { RateClass, RateScope, SharedRateBudget } from 'momo-partner-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
// The tenants entry (momo-partner-sdk/tenants) is registered by the tenant layer's branch.
import {
  memoryRateBudget,
  rateScopeId,
  tenantClientRates,
  tenantRateBudget,
} from '../../src/tenants/budget';
import { expectNestedCaps, reserveForThreeKeys } from '../support/nested-budget';
import { mostInWindow } from '../support/sliding-window';

/** A budget that records what it was asked (its `scopes` as given). */
function recording(scopes: boolean | undefined) {
  const asked: { kind: RateClass; perSecond: number; scope: RateScope | undefined }[] = [];
  const budget: SharedRateBudget = {
    ...(scopes === undefined ? {} : { scopes }),
    reserve: async (kind, perSecond, _margin, scope) => {
      asked.push({ kind, perSecond, scope });
      return Date.now();
    },
  };
  return { budget, asked };
}

describe('tenantRateBudget', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('names the key by a hash of the key and base URL, never the key', async () => {
    const { budget, asked } = recording(true);
    const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const tenant = tenantRateBudget(budget, {
      subscriptionKey: key,
      baseUrl: 'https://sandbox.momodeveloper.mtn.com/',
      globalLimits: { lookupRate: 150 },
    });
    await tenant?.reserve('lookup', 100, 25);
    await tenant?.reserve('create', 20, 25);
    const id = rateScopeId(key, 'https://sandbox.momodeveloper.mtn.com');
    expect(asked).toEqual([
      { kind: 'lookup', perSecond: 100, scope: { id, totalPerSecond: 150 } },
      { kind: 'create', perSecond: 20, scope: { id, totalPerSecond: undefined } },
    ]);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(id).not.toContain(key.slice(0, 8));
    expect(rateScopeId(key, 'https://proxy.momoapi.mtn.com')).not.toBe(id);
    expect(rateScopeId(`${key}x`, 'https://sandbox.momodeveloper.mtn.com')).not.toBe(id);
    expect(inspect(tenant)).toMatch(/^TenantRateBudget \{ scope: '[0-9a-f]{8}…' \}$/);
  });

  it('a budget without scopes: every tenant in its one window at the lowest rate', async () => {
    for (const scopes of [undefined, false]) {
      const { budget, asked } = recording(scopes);
      const tenant = tenantRateBudget(budget, {
        subscriptionKey: 'k',
        baseUrl: 'https://x.test',
        globalLimits: { lookupRate: 15 },
      });
      await tenant?.reserve('lookup', 100, 25);
      await tenant?.reserve('create', 20, 25);
      expect(asked).toEqual([
        { kind: 'lookup', perSecond: 15, scope: undefined },
        { kind: 'create', perSecond: 20, scope: undefined },
      ]);
    }
  });

  it('no shared budget: none (each client its own rates); with globalLimits, refused', () => {
    expect(tenantRateBudget(undefined, { subscriptionKey: 'k', baseUrl: 'https://x.test' })).toBe(
      undefined,
    );
    expect(() =>
      tenantRateBudget(undefined, {
        subscriptionKey: 'k',
        baseUrl: 'https://x.test',
        globalLimits: { createRate: 10 },
      }),
    ).toThrow(/globalLimits need a shared rateBudget/);
    expect(() =>
      tenantRateBudget(memoryRateBudget(), {
        subscriptionKey: 'k',
        baseUrl: 'https://x.test',
        globalLimits: { lookupRate: 0 },
      }),
    ).toThrow(/lookupRate must be a positive number/);
  });

  it('tenantClientRates: a class under globalLimits alone is paced at the overall rate', () => {
    expect(tenantClientRates({ createRate: 20 }, { lookupRate: 150 })).toEqual({
      createRate: 20,
      lookupRate: 150,
    });
    expect(tenantClientRates({ createRate: 20, lookupRate: 100 }, { lookupRate: 150 })).toEqual({
      createRate: 20,
      lookupRate: 100,
    });
    expect(tenantClientRates(undefined, undefined)).toEqual({});
  });

  it('memoryRateBudget: each key under its rate and all keys under the overall one (fake time)', async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const byKey = await reserveForThreeKeys(memoryRateBudget(), 'create');
    expectNestedCaps(byKey);
    // Fake time: the windows hold exactly, without the jitter a store's answer adds.
    for (const moments of byKey) expect(mostInWindow(moments, 999)).toBeLessThanOrEqual(4);
    expect(mostInWindow(byKey.flat(), 999)).toBeLessThanOrEqual(10);
  });
});
