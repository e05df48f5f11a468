import type { SubscriptionStore } from 'momo-partner-sdk';
import { memorySubscriptionStore } from 'momo-partner-sdk/subscriptions';
import { describe, expect, it, vi } from 'vitest';
import { DAY, gymMonthly, payer, T0 } from './support';
import { world } from './world';

const HOUR = 3_600_000;
/** Short, so that a renewal or a lapse comes within a few seconds of real time. */
const LEASE_MS = 1_500;

/** A memory store that counts the writes that only renewed a lease, and can refuse them. */
function countingStore() {
  const inner = memorySubscriptionStore();
  const counts = { renewals: 0, refused: 0 };
  let refused: string | undefined; // the owner whose renewals the store refuses
  const store: SubscriptionStore = {
    putPlan: (plan) => inner.putPlan(plan),
    getPlan: (id) => inner.getPlan(id),
    get: (key) => inner.get(key),
    due: (now, limit) => inner.due(now, limit),
    list: (filter) => inner.list(filter),
    async put(sub, expected) {
      const before = (await inner.get(sub.key))?.subscription;
      const onlyLease =
        before?.lease !== undefined &&
        sub.lease !== undefined &&
        sub.lease.owner === before.lease.owner &&
        JSON.stringify({ ...sub, lease: 0 }) === JSON.stringify({ ...before, lease: 0 });
      if (onlyLease && sub.lease?.owner === refused) {
        counts.refused += 1;
        throw new Error('store unreachable');
      }
      if (onlyLease) counts.renewals += 1;
      return inner.put(sub, expected);
    },
  };
  return { store, counts, refuse: (owner: string | undefined) => (refused = owner) };
}

/**
 * A runner's hold on a subscription is the kernel's claim (src/payments/claims.ts): a
 * lease written with the subscription, `leaseMs` of real time from the pass's last write
 * or renewal, renewed at a third of it by the holder while the pass works on it, and lost
 * when it ran out unrenewed (the store unreachable: another runner may hold it by now).
 * The lease is an option here (`leaseMs`), so these tests wait for counted renewals of a
 * 1.5 s lease, never for the 15 s default.
 */
describe('subscriptions: the runner lease', () => {
  async function pendingCharge(store: SubscriptionStore) {
    // The charge stays PENDING (an hour of the simulator's time), awaited up to a minute.
    const w = world({ settleMs: HOUR, waitMs: 60_000, store, leaseMs: LEASE_MS });
    await w.subs.plan(gymMonthly);
    await w.subs.subscribe({
      key: 'member-7',
      plan: 'gym-monthly',
      payer: payer('233244555107'),
      startAt: T0 + DAY,
    });
    w.sim.clock.advance(DAY); // the mandate approved meanwhile; period 0 due
    const pass = w.subs.runDue(); // looks the mandate up, sends the charge, awaits it
    const leased = async () => {
      const stored = (await store.get('member-7'))?.subscription;
      return { charge: stored?.charges.at(-1), lease: stored?.lease };
    };
    await vi.waitFor(async () => expect((await leased()).charge?.status).toBe('PENDING'), {
      timeout: 10_000,
    });
    return { w, pass, leased };
  }

  it('is renewed while a charge is awaited, keeps other runners off, and ends with the pass', async () => {
    const { store, counts } = countingStore();
    const { w, pass, leased } = await pendingCharge(store);
    const first = (await leased()).lease;
    expect(first).toBeDefined();
    // A runner SIGKILLed now leaves a lease that lapses within leaseMs.
    expect((first?.until ?? 0) - Date.now()).toBeLessThanOrEqual(LEASE_MS);

    // Renewed by the holder while the pass awaits the charge: two renewals counted.
    await vi.waitFor(() => expect(counts.renewals).toBeGreaterThanOrEqual(2), {
      timeout: 20_000,
      interval: 50,
    });
    const renewed = (await leased()).lease;
    expect(renewed?.owner).toBe(first?.owner);
    expect(renewed?.until).toBeGreaterThan(first?.until ?? 0);

    // Another runner meanwhile leaves it alone.
    const report = await w.make().runDue();
    expect(report).toMatchObject({ processed: 0, skipped: 1 });

    // The payer pays: the pass records it and lets go; no renewal writes after it.
    const { charge } = await leased();
    w.sim.settle(charge?.referenceId as string, 'SUCCESSFUL');
    const done = await pass;
    expect(done.counts.successful).toBe(1);
    const after = await store.get('member-7');
    expect(after?.subscription.lease).toBeUndefined();
    expect(after?.subscription.charges.map((c) => c.status)).toEqual(['SUCCESSFUL']);
    const renewalsAtEnd = counts.renewals;
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    expect((await store.get('member-7'))?.version).toBe(after?.version);
    expect(counts.renewals).toBe(renewalsAtEnd);
  }, 60_000);

  it('lapses when it cannot be renewed: the pass writes nothing more, and another runner takes over', async () => {
    const { store, counts, refuse } = countingStore();
    const { w, pass, leased } = await pendingCharge(store);
    const held = (await leased()).lease;
    refuse(held?.owner); // the store refuses this runner's renewals from now on
    await vi.waitFor(() => expect(counts.refused).toBeGreaterThanOrEqual(1), { timeout: 20_000 });
    // Once the lease ran out unrenewed, another runner may take the subscription up.
    await vi.waitFor(
      async () =>
        expect(await w.make({ waitMs: 0 }).runDue()).toMatchObject({ processed: 1, skipped: 0 }),
      { timeout: 20_000, interval: 100 },
    );
    const taken = (await store.get('member-7'))?.subscription;
    expect(taken?.lease).toBeUndefined();
    const version = (await store.get('member-7'))?.version;

    // The first pass's claim lapsed: its outcome is not written over the other runner's.
    const { charge } = await leased();
    w.sim.settle(charge?.referenceId as string, 'SUCCESSFUL');
    const done = await pass;
    expect(done).toMatchObject({ processed: 0, skipped: 1 });
    expect((await store.get('member-7'))?.version).toBe(version);
    expect(held?.owner).not.toBe(taken?.lease?.owner);
  }, 60_000);
});
