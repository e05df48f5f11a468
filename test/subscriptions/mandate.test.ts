import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSubscriptionStore, memorySubscriptionStore } from 'momo-partner-sdk/subscriptions';
import { afterAll, describe, expect, it } from 'vitest';
import { DAY, gymMonthly, payer, requestsToPay, runDays, setup, T0 } from './support';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('subscriptions: the mandate', () => {
  it('is renewed 7 days before it expires, and no charge is missed while the payer approves', async () => {
    // Every pre-approval and charge takes the payer two days (simulator time) to settle.
    const world = setup({ settleMs: 2 * DAY, waitMs: 0 });
    await world.subs.plan({ ...gymMonthly, id: 'weekly', every: 'week' });
    await world.subs.subscribe({
      key: 'saver',
      plan: 'weekly',
      payer: payer('233244555200'),
      startAt: T0,
      mandateDays: 30,
    });
    await runDays(world, 2); // approved two days after the ask
    const approved = await world.subs.get('saver');
    expect(approved?.mandate).toMatchObject({ number: 0, status: 'APPROVED' });
    const expiresAt = approved?.mandate.expiresAt as number;
    expect(expiresAt).toBe(T0 + 2 * DAY + 30 * DAY);

    await runDays(world, 22); // day 24: 8 days before expiry
    expect((await world.subs.get('saver'))?.renewal).toBeUndefined();
    await runDays(world, 1); // day 25: 7 days before
    const renewing = await world.subs.get('saver');
    expect(renewing?.renewal).toMatchObject({ number: 1, status: 'PENDING' });
    expect(renewing?.status).toBe('ACTIVE');

    await runDays(world, 60 - 25);
    const sub = await world.subs.get('saver');
    expect(sub?.mandate.number).toBe(2); // renewed twice in 60 days
    expect(sub?.status).toBe('ACTIVE');
    const perTag = requestsToPay(world.sim);
    // Weekly from day 0: periods 0..8 start by day 56; each settled two days after its send.
    for (let period = 0; period <= 7; period++) {
      expect(perTag.get(`saver/${period}`)).toEqual({ created: 1, successful: 1 });
    }
    expect(sub?.charges.filter((c) => c.status === 'SUCCESSFUL').length).toBeGreaterThanOrEqual(8);
    const asks = world.sim.transactions.filter((tx) => tx.operation === 'collection.preApproval');
    expect(asks).toHaveLength(3);
  });

  it('waits for the payer to approve (sim.decide); then charges without a prompt', async () => {
    const world = setup();
    await world.subs.plan(gymMonthly);
    // 123453: a payer who answers no prompt; only the mandate's approval is asked of them.
    const sub = await world.subs.subscribe({
      key: 'slow',
      plan: 'gym-monthly',
      payer: payer('233244123453'),
      startAt: T0,
    });
    await runDays(world, 3);
    expect(await world.subs.get('slow')).toMatchObject({ status: 'PENDING_MANDATE', charges: [] });
    world.sim.decide(sub.mandate.referenceId, 'approve');
    await runDays(world, 1);
    expect(await world.subs.get('slow')).toMatchObject({ status: 'ACTIVE', period: 1 });
    expect(requestsToPay(world.sim).get('slow/0')).toEqual({ created: 1, successful: 1 });
  });

  it('cancel stops the charges and cancels the pre-approval at the provider', async () => {
    const world = setup();
    await world.subs.plan(gymMonthly);
    const who = payer('233244555201');
    await world.subs.subscribe({ key: 'quitter', plan: 'gym-monthly', payer: who, startAt: T0 });
    await world.subs.runDue();
    expect(await world.momo.collection.getApprovedPreApprovals('msisdn', who.partyId)).toHaveLength(
      1,
    );

    const cancelled = await world.subs.cancel('quitter');
    expect(cancelled).toMatchObject({ status: 'CANCELLED', reason: 'cancelled' });
    expect(cancelled.mandate.status).toBe('CANCELLED');
    expect(await world.momo.collection.getApprovedPreApprovals('msisdn', who.partyId)).toEqual([]);
    const ask = world.sim.transactions.find((tx) => tx.operation === 'collection.preApproval');
    expect(ask?.preApproval?.state).toBe('CANCELLED');

    await runDays(world, 70);
    expect([...requestsToPay(world.sim).keys()]).toEqual(['quitter/0']);
  });
});

describe('subscriptions: a lost store', () => {
  it('a re-run with an empty store charges nobody twice (derived ids, 409s compared)', async () => {
    const world = setup();
    await world.subs.plan(gymMonthly);
    const members = ['a', 'b', 'c'].map((k, i) => ({
      key: `member-${k}`,
      plan: 'gym-monthly',
      payer: payer(`23324455530${i}`),
      startAt: T0,
    }));
    for (const m of members) await world.subs.subscribe(m);
    await world.subs.runDue();
    await runDays(world, 180);

    world.replaceStore(memorySubscriptionStore()); // the store lost mid-year
    await world.subs.plan(gymMonthly);
    for (const m of members) {
      expect(await world.subs.subscribe(m)).toMatchObject({ status: 'PENDING_MANDATE', period: 0 });
    }
    await world.subs.runDue(); // every period so far: a 409, its transaction compared, adopted
    await runDays(world, 185);

    const perTag = requestsToPay(world.sim);
    for (const m of members) {
      const sub = await world.subs.get(m.key);
      expect(sub).toMatchObject({ status: 'ACTIVE', period: 13 });
      for (let period = 0; period < 13; period++) {
        expect(perTag.get(`${m.key}/${period}`)).toEqual({ created: 1, successful: 1 });
      }
    }
    // One mandate each, asked once (the re-run's ask was a 409), and its renewal (day 358).
    const asks = world.sim.transactions.filter((tx) => tx.operation === 'collection.preApproval');
    expect(asks).toHaveLength(6);
  }, 120_000);

  it('a 409 whose transaction is not the charge (plan changed, store lost) is held, never charged again', async () => {
    const world = setup();
    await world.subs.plan(gymMonthly);
    const member = { key: 'm', plan: 'gym-monthly', payer: payer('233244555500'), startAt: T0 };
    await world.subs.subscribe(member);
    await world.subs.runDue(); // period 0 charged 50
    world.replaceStore(memorySubscriptionStore());
    await world.subs.plan({ ...gymMonthly, amount: '60' });
    await world.subs.subscribe(member);
    const report = await world.subs.runDue();
    expect(report.counts.failed).toBe(1);
    const sub = await world.subs.get('m');
    expect(sub?.status).toBe('PAST_DUE');
    expect(sub?.reason).toMatch(/^TRANSACTION_MISMATCH: amount: the provider holds 50/);
    expect(sub?.nextChargeAt).toBeUndefined();
    await runDays(world, 40);
    expect(requestsToPay(world.sim).get('m/0')).toEqual({ created: 1, successful: 1 });
    expect(requestsToPay(world.sim).size).toBe(1);
  });

  it('the file store keeps subscriptions across a restart (a new store on the same folder)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-subs-'));
    folders.push(dir);
    const world = setup({ store: fileSubscriptionStore(dir) });
    await world.subs.plan(gymMonthly);
    await world.subs.subscribe({
      key: 'ü/../x',
      plan: 'gym-monthly',
      payer: payer('233244555400'),
      startAt: T0,
    });
    await world.subs.runDue();
    await runDays(world, 40);
    world.replaceStore(fileSubscriptionStore(dir)); // a restart: the same folder
    expect((await world.subs.get('ü/../x'))?.period).toBe(2);
    expect(await world.subs.list({ dueBefore: T0 + 60 * DAY })).toHaveLength(1);
    await runDays(world, 30);
    expect((await world.subs.get('ü/../x'))?.period).toBe(3);
    expect(requestsToPay(world.sim).get('ü/../x/1')).toEqual({ created: 1, successful: 1 });
    expect(requestsToPay(world.sim).size).toBe(3);
  });
});
