import { memorySubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { describe, expect, it, vi } from 'vitest';
import { DAY, gymMonthly, payer, SECRET, setup, T0 } from './support';

const HOUR = 3_600_000;

/**
 * A runner's hold on a subscription is a lease written with the subscription: 15 s of
 * real time from the pass's last write or renewal (DESIGN 9.1: a dead process's claims are
 * taken over within 15 s), renewed at a third of it while the pass works on it. Before,
 * it was 5 minutes and never renewed: a SIGKILLed runner held its subscriptions that long
 * (test/subscriptions/processes.test.ts found it), and a pass longer than 5 minutes lost
 * its own.
 */
describe('subscriptions: the runner lease', () => {
  it('lapses 15 s after the last write, is renewed while a charge is awaited, and keeps other runners off', async () => {
    const store = memorySubscriptionStore();
    // The charge stays PENDING (an hour of the simulator's time), awaited up to a minute.
    const world = setup({ settleMs: HOUR, waitMs: 60_000, store });
    await world.subs.plan(gymMonthly);
    await world.subs.subscribe({
      key: 'member-7',
      plan: 'gym-monthly',
      payer: payer('233244555107'),
      startAt: T0 + DAY,
    });
    world.sim.clock.advance(DAY); // the mandate approved meanwhile; period 0 due
    const pass = world.subs.runDue(); // looks the mandate up, sends the charge, awaits it

    const leased = async () => {
      const stored = (await store.get('member-7'))?.subscription;
      const charge = stored?.charges.at(-1);
      return { charge, lease: stored?.lease };
    };
    await vi.waitFor(async () => expect((await leased()).charge?.status).toBe('PENDING'), {
      timeout: 10_000,
    });
    const first = (await leased()).lease;
    expect(first).toBeDefined();
    // A runner SIGKILLed now leaves a lease that lapses within 15 s (not 5 minutes).
    expect((first?.until ?? 0) - Date.now()).toBeLessThanOrEqual(15_000);

    // Renewed while the pass awaits the charge (every 5 s; polled for up to 14 s, as the
    // machine may be loaded: the renewal only has to come before the lease's 15 s end).
    await vi.waitFor(
      async () => expect((await leased()).lease?.until).toBeGreaterThan(first?.until ?? 0),
      { timeout: 14_000, interval: 250 },
    );
    expect((await leased()).lease?.owner).toBe(first?.owner);

    // Another runner meanwhile leaves it alone.
    const other = new Subscriptions(world.momo, {
      store,
      secret: SECRET,
      now: () => world.sim.clock.now(),
    });
    const report = await other.runDue();
    expect(report).toMatchObject({ processed: 0, skipped: 1 });

    // The payer pays: the pass records it and lets go; no renewal writes after it.
    const { charge } = await leased();
    world.sim.settle(charge?.referenceId as string, 'SUCCESSFUL');
    const done = await pass;
    expect(done.counts.successful).toBe(1);
    const after = await store.get('member-7');
    expect(after?.subscription.lease).toBeUndefined();
    expect(after?.subscription.charges.map((c) => c.status)).toEqual(['SUCCESSFUL']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await store.get('member-7'))?.version).toBe(after?.version);
  }, 40_000);
});
