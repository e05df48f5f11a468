/**
 * onCharge on the stores without transactions (memory, file): it runs once the outcome is
 * recorded, `tx` undefined, and a throw is not lost: the charge stays marked
 * `delivered: false` (the kernel's mark; `notified: false`, the mark of earlier versions,
 * still read) and the next pass runs onCharge again, never the charge.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubscriptionStore } from 'momo-partner-sdk';
import {
  fileSubscriptionStore,
  memorySubscriptionStore,
  type SubscriptionChargeEvent,
} from 'momo-partner-sdk/subscriptions';
import { afterAll, describe, expect, it } from 'vitest';
import { gymMonthly, payer, requestsToPay, setup, T0 } from './support';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const stores: [string, () => SubscriptionStore][] = [
  ['memorySubscriptionStore', () => memorySubscriptionStore()],
  [
    'fileSubscriptionStore',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'momo-on-charge-'));
      folders.push(dir);
      return fileSubscriptionStore(dir);
    },
  ],
];

describe.each(stores)('subscriptions onCharge on %s', (_name, make) => {
  async function member(store = make()) {
    const world = { ...setup({ store }), store };
    await world.subs.plan(gymMonthly);
    await world.subs.subscribe({
      key: 'member-42',
      plan: 'gym-monthly',
      payer: payer('233244555710'),
      startAt: T0,
    });
    return world;
  }

  it('runs after the outcome is recorded, tx undefined, with the final status', async () => {
    const world = await member();
    const seen: unknown[] = [];
    await world.subs.runDue({
      onCharge: async (charge, tx) => {
        const stored = await world.subs.get(charge.key);
        seen.push([charge.period, charge.status, charge.subscriptionStatus, tx, stored?.period]);
        expect(charge).not.toHaveProperty('delivered');
        expect(charge).not.toHaveProperty('notified');
      },
    });
    expect(seen).toEqual([[0, 'SUCCESSFUL', 'ACTIVE', undefined, 1]]);
    expect((await world.subs.get('member-42'))?.charges[0]).not.toHaveProperty('delivered');
  });

  it('a throw leaves the outcome marked; the next pass runs onCharge again, not the charge', async () => {
    const world = await member();
    const calls: SubscriptionChargeEvent[] = [];
    const onCharge = (charge: SubscriptionChargeEvent) => {
      calls.push(charge);
      if (calls.length === 1) throw new Error('the ledger is locked');
    };
    const first = await world.subs.runDue({ onCharge });
    expect(first.errors).toEqual([{ key: 'member-42', error: 'onCharge: the ledger is locked' }]);
    expect(first.counts.successful).toBe(1); // recorded: the period is paid
    const marked = await world.subs.get('member-42');
    expect(marked).toMatchObject({ status: 'ACTIVE', period: 1 });
    expect(marked?.charges[0]).toMatchObject({ status: 'SUCCESSFUL', delivered: false });
    expect(marked?.charges[0]).not.toHaveProperty('notified'); // the earlier mark: never written
    expect(marked?.dueAt).toBe(T0 + 1); // looked at by the next pass, not next month

    world.sim.clock.advance(60_000);
    const second = await world.subs.runDue({ onCharge });
    expect(second.errors).toEqual([]);
    expect(second.charges).toEqual([]); // no new outcome: only the owed onCharge
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(calls[0]);
    const after = await world.subs.get('member-42');
    expect(after?.charges[0]).not.toHaveProperty('delivered');
    expect(after?.dueAt).toBe(after?.nextChargeAt); // back to the next period
    expect(requestsToPay(world.sim).get('member-42/0')).toEqual({ created: 1, successful: 1 });
    world.sim.clock.advance(60_000);
    await world.subs.runDue({ onCharge });
    expect(calls).toHaveLength(2);
  });

  it('a cancel with an outcome still owed its onCharge: the next pass runs it', async () => {
    const world = await member();
    const calls: string[] = [];
    await world.subs.runDue({
      onCharge: () => {
        throw new Error('down');
      },
    });
    await world.subs.cancel('member-42');
    world.sim.clock.advance(60_000);
    await world.subs.runDue({ onCharge: (c) => void calls.push(`${c.period}:${c.status}`) });
    expect(calls).toEqual(['0:SUCCESSFUL']);
    const sub = await world.subs.get('member-42');
    expect(sub).toMatchObject({ status: 'CANCELLED' });
    expect(sub?.dueAt).toBeUndefined();
    expect(sub?.charges[0]).not.toHaveProperty('delivered');
  });

  it('a record an earlier version marked `notified: false` is delivered, and its mark cleared', async () => {
    const world = await member();
    await world.subs.runDue(); // period 0 paid, no onCharge given: no mark
    // The record as an earlier version wrote it: the outcome owed its onCharge under the
    // old mark, the subscription due for the pass that delivers it.
    const stored = await world.store.get('member-42');
    if (!stored) throw new Error('no subscription stored');
    const old = structuredClone(stored.subscription);
    Object.assign(old.charges[0] as object, { notified: false });
    old.dueAt = T0 + 1;
    expect(await world.store.put(old, stored.version)).toBeDefined();

    const calls: string[] = [];
    world.sim.clock.advance(60_000);
    const pass = await world.subs.runDue({
      onCharge: (c) => {
        expect(c).not.toHaveProperty('notified');
        calls.push(`${c.period}:${c.status}`);
      },
    });
    expect(pass.errors).toEqual([]);
    expect(pass.charges).toEqual([]); // no new outcome: only the owed onCharge
    expect(calls).toEqual(['0:SUCCESSFUL']);
    const after = await world.subs.get('member-42');
    expect(after?.charges[0]).not.toHaveProperty('notified');
    expect(after?.charges[0]).not.toHaveProperty('delivered');
    expect(after?.dueAt).toBe(after?.nextChargeAt);
    world.sim.clock.advance(60_000);
    await world.subs.runDue({ onCharge: (c) => void calls.push(`${c.period}:${c.status}`) });
    expect(calls).toEqual(['0:SUCCESSFUL']); // delivered once, not again
    expect(requestsToPay(world.sim).get('member-42/0')).toEqual({ created: 1, successful: 1 });
  });
});
