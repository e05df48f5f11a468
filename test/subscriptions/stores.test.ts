import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription, SubscriptionStore } from 'momo-partner-sdk';
import {
  fileSubscriptionStore,
  memorySubscriptionStore,
  Subscriptions,
} from 'momo-partner-sdk/subscriptions';
import { afterAll, describe, expect, it } from 'vitest';
import { gymMonthly, payer, requestsToPay, SECRET, setup, T0 } from './support';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const stores: [string, () => SubscriptionStore][] = [
  ['memorySubscriptionStore', () => memorySubscriptionStore()],
  [
    'fileSubscriptionStore',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'momo-subs-store-'));
      folders.push(dir);
      return fileSubscriptionStore(dir);
    },
  ],
];

const row = (key: string, dueAt: number | undefined): Subscription => ({
  key,
  plan: 'p',
  payer: payer('233244555700'),
  status: dueAt === undefined ? 'CANCELLED' : 'ACTIVE',
  startAt: 0,
  mandateDays: 30,
  mandate: { referenceId: 'r', number: 0, status: 'APPROVED' },
  period: 0,
  dueAt,
  charges: [],
  createdAt: 0,
  updatedAt: 0,
});

describe.each(stores)('%s: the SubscriptionStore contract', (_name, make) => {
  it('writes by compare-and-set: a write naming an old version writes nothing', async () => {
    const store = make();
    expect(await store.put(row('a', 10), undefined)).toBe(1);
    expect(await store.put(row('a', 10), undefined)).toBeUndefined(); // exists already
    expect(await store.put({ ...row('a', 20), period: 1 }, 1)).toBe(2);
    expect(await store.put({ ...row('a', 30), period: 9 }, 1)).toBeUndefined(); // stale
    expect(await store.get('a')).toMatchObject({
      version: 2,
      subscription: { period: 1, dueAt: 20 },
    });
    expect(await store.get('nobody')).toBeUndefined();
  });

  it('due(now) gives only the keys due, soonest first, and follows every write', async () => {
    const store = make();
    await store.put(row('late', 300), undefined);
    await store.put(row('soon', 100), undefined);
    await store.put(row('mid', 200), undefined);
    await store.put(row('stopped', undefined), undefined);
    expect(await store.due(250, 10)).toEqual(['soon', 'mid']);
    expect(await store.due(1000, 2)).toEqual(['soon', 'mid']);
    await store.put(row('soon', 400), 1); // moved later
    await store.put(row('mid', undefined), 1); // stopped: out of the index
    expect(await store.due(1000, 10)).toEqual(['late', 'soon']);
    expect((await store.list({ dueBefore: 350 })).map((s) => s.key)).toEqual(['late']);
    expect((await store.list({ status: 'CANCELLED' })).map((s) => s.key).sort()).toEqual([
      'mid',
      'stopped',
    ]);
  });

  it('keeps plans by id', async () => {
    const store = make();
    const plan = { id: 'p', amount: '5', currency: 'EUR', every: { days: 14 }, retry: ['1d'] };
    await store.putPlan(plan);
    expect(await store.getPlan('p')).toEqual(plan);
    expect(await store.getPlan('q')).toBeUndefined();
  });
});

describe('subscriptions: two runners on one store', () => {
  it('never work on one subscription at once: one charge per period', async () => {
    const world = setup();
    const store = memorySubscriptionStore();
    world.replaceStore(store);
    const other = new Subscriptions(world.momo, {
      store,
      secret: SECRET,
      now: () => world.sim.clock.now(),
    });
    await world.subs.plan({ ...gymMonthly, every: 'week' });
    for (let i = 0; i < 20; i++) {
      await world.subs.subscribe({
        key: `m${i}`,
        plan: 'gym-monthly',
        payer: payer(`2332445558${String(i).padStart(2, '0')}`),
        startAt: T0,
      });
    }
    for (let week = 0; week < 8; week++) {
      const [a, b] = await Promise.all([world.subs.runDue(), other.runDue()]);
      expect(a.processed + b.processed).toBeGreaterThanOrEqual(20);
      world.sim.clock.advance(7 * 86_400_000);
    }
    const perTag = requestsToPay(world.sim);
    expect(perTag.size).toBe(20 * 8);
    // Sent once each: not a second send answered 409 (the lease kept the other runner off).
    const sends = world.sim.requests.filter(
      (r) => r.method === 'POST' && r.path === '/collection/v1_0/requesttopay',
    );
    expect(sends).toHaveLength(20 * 8);
    for (const counts of perTag.values()) expect(counts).toEqual({ created: 1, successful: 1 });
  });
});
