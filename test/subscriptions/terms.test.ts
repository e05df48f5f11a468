import type { SubscriptionChargeEvent } from 'momo-partner-sdk/subscriptions';
import type { Simulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { DAY, gymMonthly, payer, T0 } from './support';
import { world } from './world';

const HOUR = 3_600_000;
const requestsToPay = (sim: Simulator) =>
  sim.transactions.filter((tx) => tx.operation === 'collection.requestToPay');
const preApprovals = (sim: Simulator) =>
  sim.transactions
    .filter((tx) => tx.operation === 'collection.preApproval')
    .map((tx) => ({ ...tx, payerMessage: (tx.body as { payerMessage?: string }).payerMessage }));

/**
 * A pre-approval carries no amount and no frequency: the terms its message stated are the
 * only limit, and the SDK keeps them (DESIGN 10.3).
 */
describe('subscriptions: terms fixed at approval', () => {
  it('a plan redefined (50 EUR a month to 5,000 EUR a day) changes no charge under the mandate', async () => {
    const w = world();
    await w.subs.plan(gymMonthly);
    await w.subs.subscribe({
      key: 'm1',
      plan: 'gym-monthly',
      payer: payer('233244555301'),
      startAt: T0,
    });
    const [ask] = preApprovals(w.sim);
    expect(ask?.payerMessage).toMatch(/^50 EUR a month, ref [0-9a-f]{8}$/);
    await w.days(1); // 1 February: period 0 charged
    await w.subs.plan({ ...gymMonthly, amount: '5000', every: 'day' });
    await w.days(70); // to 12 April: periods 1 (28 February) and 2 (31 March)
    const sent = requestsToPay(w.sim);
    expect(sent.map((tx) => [tx.amount, tx.currency])).toEqual([
      ['50', 'EUR'],
      ['50', 'EUR'],
      ['50', 'EUR'],
    ]);
    const sub = await w.subs.get('m1');
    expect(sub?.charges.map((c) => [c.period, c.amount, c.currency])).toEqual([
      [0, '50', 'EUR'],
      [1, '50', 'EUR'],
      [2, '50', 'EUR'],
    ]);
    expect(sub?.mandate.terms).toEqual({ amount: '50', currency: 'EUR', every: 'month' });
  });

  it('changePlan asks for a new mandate stating the new terms; old terms until its approval, the new from the next period', async () => {
    const w = world();
    await w.subs.plan(gymMonthly);
    await w.subs.plan({ ...gymMonthly, id: 'gym-55', amount: '55' });
    // 123453: answers no prompt; charges under an approved mandate need none.
    const first = await w.subs.subscribe({
      key: 'm2',
      plan: 'gym-monthly',
      payer: payer('233244123453'),
      startAt: T0,
    });
    w.sim.decide(first.mandate.referenceId, 'approve');
    await w.days(1); // period 0 at 50
    const changing = await w.subs.changePlan('m2', 'gym-55');
    expect(changing.change).toMatchObject({ plan: 'gym-55', mandate: { number: 1 } });
    const asked = preApprovals(w.sim).at(-1);
    expect(asked?.payerMessage).toContain('55 EUR a month');
    await w.days(30); // 3 March: period 1 (28 February) at the old terms: not approved yet
    w.sim.decide(changing.change?.mandate.referenceId as string, 'approve');
    await w.days(60); // to 2 May: periods 2 (31 March) and 3 (30 April) at 55
    expect(requestsToPay(w.sim).map((tx) => tx.amount)).toEqual(['50', '50', '55', '55']);
    const sub = await w.subs.get('m2');
    expect(sub?.plan).toBe('gym-55');
    expect(sub?.mandate).toMatchObject({ number: 1, terms: { amount: '55' }, fromPeriod: 2 });
    expect(sub?.replaced?.map((m) => m.number)).toEqual([0]);
  });

  it("a charge above its mandate's terms is never sent (a retry of a period fixed at more)", async () => {
    const w = world({ settleMs: HOUR, waitMs: 0 });
    await w.subs.plan({ ...gymMonthly, retry: ['1d'] });
    const sub = await w.subs.subscribe({
      key: 'm3',
      plan: 'gym-monthly',
      payer: payer('233244123453'),
      startAt: T0,
    });
    w.sim.decide(sub.mandate.referenceId, 'approve');
    await w.days(1); // period 0 sent at 50, pending
    const charge = (await w.subs.get('m3'))?.charges[0];
    w.sim.settle(charge?.referenceId as string, 'FAILED', {
      code: 'NOT_ENOUGH_FUNDS',
      message: 'short',
    });
    await w.days(1); // FAILED: retried in a day
    // The mandate's terms as stored say 40 (a mandate that stated less than the period's 50).
    const stored = await w.store.get('m3');
    const record = stored?.subscription;
    if (!record?.mandate.terms) throw new Error('no terms');
    record.mandate.terms.amount = '40';
    await w.store.put(record, stored?.version);
    await w.days(2);
    expect(requestsToPay(w.sim)).toHaveLength(1);
    const after = await w.subs.get('m3');
    expect(after?.charges.map((c) => [c.attempt, c.amount, c.status, c.reason])).toEqual([
      [1, '50', 'FAILED', 'NOT_ENOUGH_FUNDS'],
      [2, '50', 'FAILED', 'ABOVE_MANDATE_TERMS'],
    ]);
    expect(after?.arrears).toEqual([0]);
  });

  it('a declined charge (APPROVAL_REJECTED) is retried once, then left in arrears; billing goes on', async () => {
    const w = world({ settleMs: HOUR, waitMs: 0 });
    await w.subs.plan({ ...gymMonthly, retry: ['1d', '1d', '1d'] });
    const sub = await w.subs.subscribe({
      key: 'm5',
      plan: 'gym-monthly',
      payer: payer('233244123453'),
      startAt: T0,
    });
    w.sim.decide(sub.mandate.referenceId, 'approve');
    for (let attempt = 1; attempt <= 2; attempt++) {
      await w.days(1); // sent
      const last = (await w.subs.get('m5'))?.charges.at(-1);
      w.sim.settle(last?.referenceId as string, 'FAILED', {
        code: 'APPROVAL_REJECTED',
        message: 'declined',
      });
      await w.days(1); // its outcome recorded
    }
    await w.days(5);
    const after = await w.subs.get('m5');
    expect(after?.charges.map((c) => [c.period, c.attempt, c.reason])).toEqual([
      [0, 1, 'APPROVAL_REJECTED'],
      [0, 2, 'APPROVAL_REJECTED'],
    ]);
    expect(after?.arrears).toEqual([0]);
    expect(after?.status).toBe('PAST_DUE');
    expect(after?.nextChargeAt).toBe(Date.UTC(2026, 1, 28, 9)); // period 1, as planned
  });

  it('every charge carries its amount and currency, and each attempt keeps its own time', async () => {
    const w = world({ settleMs: HOUR, waitMs: 0 });
    await w.subs.plan({ ...gymMonthly, retry: ['1d'] });
    const sub = await w.subs.subscribe({
      key: 'm6',
      plan: 'gym-monthly',
      payer: payer('233244123453'),
      startAt: T0,
    });
    w.sim.decide(sub.mandate.referenceId, 'approve');
    const seen: { amount?: string | undefined; currency?: string | undefined }[] = [];
    const onCharge = (c: SubscriptionChargeEvent) => {
      seen.push({ amount: c.amount, currency: c.currency });
    };
    w.sim.clock.advance(DAY);
    await w.subs.runDue({ onCharge });
    const sentAt = w.sim.clock.now();
    const first = (await w.subs.get('m6'))?.charges[0];
    w.sim.settle(first?.referenceId as string, 'SUCCESSFUL');
    w.sim.clock.advance(DAY);
    await w.subs.runDue({ onCharge });
    const paid = (await w.subs.get('m6'))?.charges[0];
    expect(paid).toMatchObject({ amount: '50', currency: 'EUR', at: sentAt, status: 'SUCCESSFUL' });
    expect(paid?.settledAt).toBe(sentAt + DAY);
    expect(seen).toEqual([{ amount: '50', currency: 'EUR' }]);
  });
});
