import type { Simulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { DAY, gymMonthly, payer, T0 } from './support';
import { world } from './world';

const rtp = (sim: Simulator) =>
  sim.transactions.filter((tx) => tx.operation === 'collection.requestToPay');
const asks = (sim: Simulator) =>
  sim.transactions.filter((tx) => tx.operation === 'collection.preApproval');
const approved = async (w: ReturnType<typeof world>, msisdn: string) =>
  (await w.momo.collection.getApprovedPreApprovals('msisdn', msisdn)) as { message?: string }[];

describe('subscriptions a payer can trust', () => {
  it('a reused key after a cancel is a new subscription: its own identity, mandate and charges', async () => {
    const w = world();
    await w.subs.plan(gymMonthly);
    const first = await w.subs.subscribe({
      key: 'k1',
      plan: 'gym-monthly',
      payer: payer('233244555401'),
      startAt: T0,
    });
    await w.days(1); // approved, period 0 paid
    await w.subs.cancel('k1');
    const again = await w.subs.subscribe({
      key: 'k1',
      plan: 'gym-monthly',
      payer: payer('233244555401'),
      startAt: T0 + 60 * DAY,
    });
    expect(again.id).toBeDefined();
    expect(again.id).not.toBe(first.id);
    expect(again.mandate.referenceId).not.toBe(first.mandate.referenceId);
    expect(again.status).toBe('PENDING_MANDATE'); // the old, cancelled mandate is not taken
    expect(again.charges).toEqual([]);
    await w.days(130); // to 11 June
    const sub = await w.subs.get('k1');
    const paid = sub?.charges.filter((c) => c.status === 'SUCCESSFUL') ?? [];
    // Periods 0..2 of the new subscription (1 April, 1 May, 1 June), each a request of its own.
    expect(paid.map((c) => c.period)).toEqual([0, 1, 2]);
    const ids = new Set(rtp(w.sim).map((tx) => tx.referenceId));
    for (const c of paid) expect(ids.has(c.referenceId)).toBe(true);
    expect(rtp(w.sim)).toHaveLength(4); // the first subscription's one, and three
    expect(asks(w.sim)).toHaveLength(2);
  });

  it("cancel cancels its own mandate, never another subscription's approved in the same second", async () => {
    const w = world();
    await w.subs.plan(gymMonthly);
    const msisdn = '233244555402';
    for (const key of ['a', 'b'])
      await w.subs.subscribe({ key, plan: 'gym-monthly', payer: payer(msisdn), startAt: T0 });
    await w.days(1); // both approved by one pass, in one second
    const b = await w.subs.get('b');
    expect((await approved(w, msisdn)).length).toBe(2);
    const a = await w.subs.cancel('a');
    expect(a.mandate.status).toBe('CANCELLED');
    const left = await approved(w, msisdn);
    expect(left).toHaveLength(1);
    expect(left[0]?.message).toContain(
      `ref ${b?.mandate.referenceId.replace(/-/g, '').slice(0, 8)}`,
    );
    await w.days(40); // b goes on being charged under its mandate
    expect((await w.subs.get('b'))?.charges.filter((c) => c.status === 'SUCCESSFUL')).toHaveLength(
      2,
    );
  });

  it('cancel cancels the mandates it replaced by a renewal too', async () => {
    const w = world();
    await w.subs.plan({ ...gymMonthly, id: 'weekly', every: 'week' });
    const msisdn = '233244555403';
    await w.subs.subscribe({
      key: 'r',
      plan: 'weekly',
      payer: payer(msisdn),
      startAt: T0,
      mandateDays: 10,
    });
    await w.days(6); // approved on day 1 (expires day 11); renewal asked day 4, approved day 5
    const renewed = await w.subs.get('r');
    expect(renewed?.mandate.number).toBe(1);
    expect(renewed?.replaced?.map((m) => [m.number, m.status])).toEqual([[0, 'APPROVED']]);
    expect(await approved(w, msisdn)).toHaveLength(2); // the old one runs until day 11
    const cancelled = await w.subs.cancel('r');
    expect(await approved(w, msisdn)).toHaveLength(0);
    expect(cancelled.replaced?.map((m) => m.status)).toEqual(['CANCELLED']);
  });

  it('endAt ends it: no period after it charged, no renewal asked when no period follows the expiry', async () => {
    const w = world();
    await w.subs.plan({ ...gymMonthly, id: 'weekly', every: 'week' });
    await w.subs.subscribe({
      key: 'e',
      plan: 'weekly',
      payer: payer('233244555404'),
      startAt: T0,
      endAt: T0 + 20 * DAY, // periods on days 0, 7, 14
      mandateDays: 14, // approved on day 1: expires day 15, after the last period
    });
    await w.days(40);
    const sub = await w.subs.get('e');
    expect(sub?.status).toBe('ENDED');
    expect(sub?.charges.map((c) => [c.period, c.status])).toEqual([
      [0, 'SUCCESSFUL'],
      [1, 'SUCCESSFUL'],
      [2, 'SUCCESSFUL'],
    ]);
    expect(asks(w.sim)).toHaveLength(1); // no renewal
    expect(sub?.renewal).toBeUndefined();
    expect(await approved(w, '233244555404')).toHaveLength(0); // ended: its mandate cancelled
  });

  it('endAt ends a subscription whose mandate is still pending: nothing charged after it', async () => {
    const w = world();
    await w.subs.plan({ ...gymMonthly, id: 'weekly', every: 'week' });
    const sub = await w.subs.subscribe({
      key: 'late',
      plan: 'weekly',
      payer: payer('233244123453'), // never answers: the mandate stays pending
      startAt: T0,
      endAt: T0 + 20 * DAY,
    });
    await w.days(25);
    expect((await w.subs.get('late'))?.status).toBe('ENDED');
    w.sim.decide(sub.mandate.referenceId, 'approve'); // approved after the end
    await w.days(5);
    expect(rtp(w.sim)).toHaveLength(0);
    expect((await w.subs.get('late'))?.arrears).toEqual([0, 1, 2]);
  });

  it('a renewal declined after the old mandate expired cancels, its reason naming the renewal', async () => {
    const w = world();
    await w.subs.plan({ ...gymMonthly, id: 'weekly', every: 'week' });
    const sub = await w.subs.subscribe({
      key: 'd',
      plan: 'weekly',
      payer: payer('233244123453'),
      startAt: T0,
      mandateDays: 10,
    });
    w.sim.decide(sub.mandate.referenceId, 'approve');
    await w.days(12); // renewal asked on day 3, still pending; the old one expired on day 10
    const waiting = await w.subs.get('d');
    expect(waiting?.status).toBe('PENDING_MANDATE');
    w.sim.decide(waiting?.renewal?.referenceId as string, 'decline');
    await w.days(1);
    const after = await w.subs.get('d');
    expect(after?.status).toBe('CANCELLED');
    expect(after?.reason).toMatch(/^renewal 1 APPROVAL_REJECTED/);
  });

  it('pause skips the periods between (not charged, not in arrears); resume charges again', async () => {
    const w = world();
    await w.subs.plan({ ...gymMonthly, id: 'weekly', every: 'week' });
    await w.subs.subscribe({ key: 'p', plan: 'weekly', payer: payer('233244555405'), startAt: T0 });
    await w.days(1); // period 0
    await w.subs.pause('p', { until: T0 + 30 * DAY });
    await w.days(20); // periods 1 (day 7), 2 (14), 3 (21) skipped
    await w.subs.resume('p');
    await w.days(10); // period 4 (day 28) charged
    const sub = await w.subs.get('p');
    expect(sub?.charges.map((c) => c.period)).toEqual([0, 4]);
    expect(sub?.skipped).toEqual([1, 2, 3]);
    expect(sub?.arrears ?? []).toEqual([]);
  });

  it('a mandate revoked at the provider: PENDING_MANDATE and the payer asked again, no prompt sent', async () => {
    const w = world();
    await w.subs.plan(gymMonthly);
    const msisdn = '233244123453'; // answers no prompt: a charge sent without a mandate stays pending
    const sub = await w.subs.subscribe({
      key: 'v',
      plan: 'gym-monthly',
      payer: payer(msisdn),
      startAt: T0,
    });
    w.sim.decide(sub.mandate.referenceId, 'approve');
    await w.days(1); // period 0 paid
    const [listed] = (await w.momo.collection.getApprovedPreApprovals('msisdn', msisdn)) as {
      preApprovalId: string;
    }[];
    await w.momo.collection.cancelPreApproval(listed?.preApprovalId as string); // revoked
    await w.days(30); // period 1 due on 28 February
    const after = await w.subs.get('v');
    expect(after?.status).toBe('PENDING_MANDATE');
    expect(after?.mandate).toMatchObject({ number: 1, status: 'PENDING' });
    expect(rtp(w.sim)).toHaveLength(1); // no ordinary prompt for period 1
    w.sim.decide(after?.mandate.referenceId as string, 'approve');
    await w.days(1);
    expect((await w.subs.get('v'))?.charges.map((c) => [c.period, c.status])).toEqual([
      [0, 'SUCCESSFUL'],
      [1, 'SUCCESSFUL'],
    ]);
  });
});
