/**
 * A mandate the payer approves only after its subscription stopped (docs/assumptions.md
 * ST10): the provider cannot cancel a pending pre-approval, so the stopped subscription
 * watches it and cancels it once approved; nothing is charged under it, and no approved
 * mandate is left at the provider to let a request to pay through without a prompt.
 */
import type { Simulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { DAY, gymMonthly, payer, T0 } from './support';
import { world } from './world';

const SILENT = '233244123453'; // never answers: its pre-approvals stay pending until decided
const weekly = { ...gymMonthly, id: 'weekly', every: 'week' as const };
const rtp = (sim: Simulator) =>
  sim.transactions.filter((tx) => tx.operation === 'collection.requestToPay');
const approvedAt = async (w: ReturnType<typeof world>, msisdn: string) =>
  (await w.momo.collection.getApprovedPreApprovals('msisdn', msisdn)) as unknown[];

describe('a mandate approved after its subscription stopped', () => {
  it('endAt passed with the first mandate pending: approved later, it is cancelled at once', async () => {
    const w = world();
    await w.subs.plan(weekly);
    const sub = await w.subs.subscribe({
      key: 'late',
      plan: 'weekly',
      payer: payer(SILENT),
      startAt: T0,
      endAt: T0 + 20 * DAY,
    });
    await w.days(25);
    const ended = await w.subs.get('late');
    expect(ended?.status).toBe('ENDED');
    expect(ended?.dueAt).toBeDefined(); // still watched: its mandate is unanswered
    w.sim.decide(sub.mandate.referenceId, 'approve'); // approved after the end
    expect(await approvedAt(w, SILENT)).toHaveLength(1);
    await w.days(1);
    expect(await approvedAt(w, SILENT)).toHaveLength(0);
    const after = await w.subs.get('late');
    expect(after?.mandate.status).toBe('CANCELLED');
    expect(after?.dueAt).toBeUndefined(); // nothing left to watch
    expect(rtp(w.sim)).toHaveLength(0);
    expect(w.sim.transaction(sub.mandate.referenceId)?.preApproval?.state).toBe('CANCELLED');
  });

  it('cancel with the mandate pending: approved a week later, it is cancelled', async () => {
    const w = world();
    await w.subs.plan(weekly);
    const sub = await w.subs.subscribe({
      key: 'c',
      plan: 'weekly',
      payer: payer(SILENT),
      startAt: T0,
    });
    await w.days(2);
    const cancelled = await w.subs.cancel('c');
    expect(cancelled.status).toBe('CANCELLED');
    await w.days(7);
    w.sim.decide(sub.mandate.referenceId, 'approve');
    await w.days(2);
    expect(await approvedAt(w, SILENT)).toHaveLength(0);
    expect((await w.subs.get('c'))?.mandate.status).toBe('CANCELLED');
    expect(rtp(w.sim)).toHaveLength(0);
  });

  it("a plan change's mandate pending at endAt is set aside, never applied; approved later, cancelled", async () => {
    const w = world();
    await w.subs.plan(weekly);
    await w.subs.plan({ ...weekly, id: 'weekly-up', amount: '60' });
    const sub = await w.subs.subscribe({
      key: 'p',
      plan: 'weekly',
      payer: payer(SILENT),
      startAt: T0,
      endAt: T0 + 15 * DAY, // periods on days 0, 7, 14
    });
    w.sim.decide(sub.mandate.referenceId, 'approve'); // the first mandate answered at once
    await w.days(1);
    const changed = await w.subs.changePlan('p', 'weekly-up'); // this prompt is left unanswered
    const ref = changed.change?.mandate.referenceId as string;
    await w.days(20);
    const ended = await w.subs.get('p');
    expect(ended?.status).toBe('ENDED');
    expect(ended?.change).toBeUndefined();
    expect(ended?.replaced?.find((m) => m.referenceId === ref)?.status).toBe('PENDING');
    expect(rtp(w.sim).map((tx) => Number(tx.amount))).toEqual([50, 50, 50]);
    expect(await approvedAt(w, SILENT)).toHaveLength(0); // the first one cancelled at the end
    w.sim.decide(ref, 'approve');
    expect(await approvedAt(w, SILENT)).toHaveLength(1);
    await w.days(2);
    expect(await approvedAt(w, SILENT)).toHaveLength(0);
    expect(rtp(w.sim)).toHaveLength(3);
  });

  it('watched until mandateDays after the stop, then let go (EXPIRED, out of the due index)', async () => {
    const w = world();
    await w.subs.plan(weekly);
    await w.subs.subscribe({
      key: 'w',
      plan: 'weekly',
      payer: payer(SILENT),
      startAt: T0,
      endAt: T0 + 7 * DAY,
      mandateDays: 30,
    });
    await w.days(8); // ended on day 7 or 8
    const lookups = () => w.sim.requests.filter((r) => r.method === 'GET').length;
    const before = lookups();
    await w.days(40);
    const sub = await w.subs.get('w');
    expect(sub?.mandate).toMatchObject({ status: 'EXPIRED' });
    expect(sub?.mandate.reason).toMatch(/^UNANSWERED/);
    expect(sub?.dueAt).toBeUndefined();
    const spent = lookups() - before;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(45); // at most about one a day (one per pass here)
    await w.days(10);
    expect(lookups() - before).toBe(spent); // let go: no lookup more
  });
});
