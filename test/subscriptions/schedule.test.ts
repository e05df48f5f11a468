import { ValidationError } from 'momo-partner-sdk';
import { Subscriptions } from 'momo-partner-sdk/subscriptions';
import { describe, expect, it, vi } from 'vitest';
import { DAY, gymMonthly, payer, requestsToPay, runDays, setup, T0 } from './support';

describe('subscriptions: a year of monthly charges', () => {
  it('charges each period exactly once, on the calendar month from startAt (clamped)', async () => {
    const world = setup();
    await world.subs.plan(gymMonthly);
    const keys = ['member-1', 'member-2', 'member-3'];
    for (const [i, key] of keys.entries()) {
      const sub = await world.subs.subscribe({
        key,
        plan: 'gym-monthly',
        payer: payer(`23324455500${i}`),
        startAt: new Date(T0),
        mandateDays: 400,
      });
      expect(sub.status).toBe('PENDING_MANDATE');
    }
    const first = await world.subs.runDue();
    expect(first.processed).toBe(3);
    expect(first.counts.successful).toBe(3);
    await runDays(world, 365); // 31 January 2027: period 12 is due too

    const perTag = requestsToPay(world.sim);
    for (const key of keys) {
      const sub = await world.subs.get(key);
      expect(sub?.status).toBe('ACTIVE');
      expect(sub?.period).toBe(13);
      expect(sub?.charges.map((c) => c.status)).toEqual(Array(13).fill('SUCCESSFUL'));
      const days = sub?.charges.map((c) => new Date(c.at).toISOString().slice(0, 10));
      expect(days?.slice(0, 4)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
      for (let period = 0; period < 13; period++) {
        expect(perTag.get(`${key}/${period}`)).toEqual({ created: 1, successful: 1 });
      }
    }
    expect([...perTag.keys()].length).toBe(39);
  }, 120_000);

  it('reads only the subscriptions due (the due index), and lists by status and due time', async () => {
    const world = setup();
    await world.subs.plan({ ...gymMonthly, id: 'weekly', every: 'week' });
    await world.subs.subscribe({
      key: 'soon',
      plan: 'weekly',
      payer: payer('233244555010'),
      startAt: T0,
    });
    await world.subs.subscribe({
      key: 'later',
      plan: 'weekly',
      payer: payer('233244555011'),
      startAt: T0 + 30 * DAY,
    });
    await world.subs.runDue();
    expect((await world.subs.get('soon'))?.charges).toHaveLength(1);
    expect((await world.subs.get('later'))?.charges).toHaveLength(0);
    expect((await world.subs.list({ status: 'ACTIVE' })).map((s) => s.key).sort()).toEqual([
      'later',
      'soon',
    ]);
    const dueThisWeek = await world.subs.list({ dueBefore: T0 + 8 * DAY });
    expect(dueThisWeek.map((s) => s.key)).toEqual(['soon']);
    const quiet = await world.subs.runDue({ now: T0 + DAY });
    expect(quiet.processed).toBe(0);
  });

  it('ends (ENDED) once no period starts before endAt; { days: n } periods', async () => {
    const world = setup();
    await world.subs.plan({ ...gymMonthly, id: 'fortnightly', every: { days: 14 } });
    await world.subs.subscribe({
      key: 'term',
      plan: 'fortnightly',
      payer: payer('233244555020'),
      startAt: T0,
      endAt: T0 + 42 * DAY, // periods start on days 0, 14 and 28
    });
    await world.subs.runDue();
    await runDays(world, 60);
    const sub = await world.subs.get('term');
    expect(sub).toMatchObject({ status: 'ENDED', period: 3 });
    expect(sub?.dueAt).toBeUndefined();
    expect(sub?.charges.map((c) => (c.at - T0) / DAY)).toEqual([0, 14, 28]);
    expect(await world.subs.list({ status: 'ENDED' })).toHaveLength(1);
    expect(sub?.mandate.status).toBe('CANCELLED'); // and cancelled at the provider
    expect(await world.momo.collection.getApprovedPreApprovals('msisdn', '233244555020')).toEqual(
      [],
    );
  });

  it('refuses bad input with a ValidationError naming the field, nothing sent', async () => {
    const world = setup();
    await expect(world.subs.plan({ ...gymMonthly, every: 'fortnight' as 'week' })).rejects.toThrow(
      ValidationError,
    );
    await expect(world.subs.plan({ ...gymMonthly, retry: ['soon'] })).rejects.toMatchObject({
      field: 'retry',
    });
    expect(() => world.subs.start({ onCharge: 'book it' as never })).toThrow(ValidationError);
    await expect(world.subs.runDue({ onCharge: 42 as never })).rejects.toMatchObject({
      field: 'onCharge',
    });
    await world.subs.plan(gymMonthly);
    await expect(
      world.subs.subscribe({ key: 'm', plan: 'nope', payer: payer('233244555012'), startAt: T0 }),
    ).rejects.toMatchObject({ field: 'plan' });
    await expect(
      world.subs.subscribe({
        key: 'a\u0000b',
        plan: 'gym-monthly',
        payer: payer('2332445'),
        startAt: T0,
      }),
    ).rejects.toMatchObject({ field: 'key' });
    expect(() => new Subscriptions(world.momo, { store: undefined as never, secret: 'x' })).toThrow(
      ValidationError,
    );
    expect(world.sim.transactions).toHaveLength(0);
  });
});

describe('subscriptions: start()', () => {
  it('runs passes until stop(), calling onCharge once each outcome is recorded', async () => {
    const world = setup();
    await world.subs.plan({ ...gymMonthly, id: 'daily', every: 'day' });
    await world.subs.subscribe({
      key: 'd',
      plan: 'daily',
      payer: payer('233244555600'),
      startAt: T0,
    });
    const seen: string[] = [];
    const runner = world.subs.start({
      intervalMs: 10,
      onCharge: async (charge) => {
        const stored = await world.subs.get(charge.key);
        // Recorded before onCharge runs: the store already has the next period.
        expect(stored?.period).toBe(charge.period + 1);
        seen.push(`${charge.key}/${charge.period}:${charge.status}`);
      },
    });
    // Real time passes between the runner's passes; the simulator's clock is moved by hand.
    await vi.waitFor(() => expect(seen).toEqual(['d/0:SUCCESSFUL']), { timeout: 10_000 });
    world.sim.clock.advance(DAY);
    await vi.waitFor(() => expect(seen).toHaveLength(2), { timeout: 10_000 });
    await runner.stop();
    world.sim.clock.advance(DAY);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual(['d/0:SUCCESSFUL', 'd/1:SUCCESSFUL']);
  });
});
