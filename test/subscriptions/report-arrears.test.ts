/**
 * Finance's report of a subscription that ended with periods never charged (its mandate
 * never approved): each of them is a row, ARREARS, as the arrears list says (the school
 * year's finding: the rows stopped at the period the subscription had reached).
 */
import { describe, expect, it } from 'vitest';
import { DAY, gymMonthly, payer, T0 } from './support';
import { world } from './world';

describe('subs.report: a subscription ended in arrears', () => {
  it('lists each period left unpaid at endAt as an ARREARS row', async () => {
    const w = world();
    await w.subs.plan({ ...gymMonthly, id: 'weekly', every: 'week' });
    await w.subs.subscribe({
      key: 'never',
      plan: 'weekly',
      payer: payer('233244123453'), // never answers: the mandate stays pending
      startAt: T0,
      endAt: T0 + 20 * DAY, // periods on days 0, 7, 14
    });
    await w.subs.subscribe({
      key: 'paid',
      plan: 'weekly',
      payer: payer('233244555480'),
      startAt: T0,
      endAt: T0 + 20 * DAY,
    });
    await w.days(25);
    expect((await w.subs.get('never'))?.status).toBe('ENDED');
    const report = await w.subs.report({ from: T0, to: T0 + 30 * DAY });
    const rows = (key: string) =>
      report.periods.filter((r) => r.key === key).map((r) => [r.period, r.status, r.amount]);
    expect(rows('never')).toEqual([
      [0, 'ARREARS', '50'],
      [1, 'ARREARS', '50'],
      [2, 'ARREARS', '50'],
    ]);
    expect(rows('paid').map(([, status]) => status)).toEqual(['PAID', 'PAID', 'PAID']);
    expect(report.arrears).toEqual([
      { key: 'never', periods: [0, 1, 2], amount: '150', currency: 'EUR', since: T0 },
    ]);
  });
});
