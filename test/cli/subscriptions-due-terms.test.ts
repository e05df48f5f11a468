import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support';

// `subscriptions due` sums what each subscription's next charge will ask: the terms its
// mandate stated (or its period's amount, fixed at the first charge), not the plan as it
// is after a redefinition (DESIGN 10.3).
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 31, 9); // 31 January 2026
const payer = (partyId: string) => ({ partyIdType: 'MSISDN' as const, partyId });

describe('subscriptions due (CLI): each subscription its own terms', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'momo-subs-due-terms-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('a plan redefined from 50 to 65 EUR: the earlier members due at 50, a retry at its period’s 50, the new member at 65', async () => {
    const sim = createSimulator({ settleMs: 0, clock: { now: () => T0 }, tokenTtlSeconds: 1e8 });
    const subs = new Subscriptions(sim.client(), {
      store: fileSubscriptionStore(join(dir, 'subscriptions')),
      secret: 'cli-subscriptions-due-terms-secret-01',
      now: () => sim.clock.now(),
      concurrency: 1, // in key order: the injected refusal meets 'a-short'
    });
    await subs.plan({ id: 'gym', amount: '50', currency: 'EUR', every: 'month', retry: ['3d'] });
    await subs.subscribe({
      key: 'a-short',
      plan: 'gym',
      payer: payer('233244555601'),
      startAt: T0,
    });
    await subs.subscribe({ key: 'b-old', plan: 'gym', payer: payer('233244555602'), startAt: T0 });
    await subs.runDue(); // both mandates approved, period 0 paid at 50
    sim.clock.advance(28 * DAY); // 28 February: period 1
    const empty = { code: 'NOT_ENOUGH_FUNDS', message: 'The payer does not have enough funds.' };
    sim.inject({
      kind: 'status',
      status: 500,
      body: empty,
      match: 'POST /collection/v1_0/requesttopay',
      times: 1,
    });
    await subs.runDue(); // 'a-short' fails (a retry on 3 March, at 50); 'b-old' pays
    // The fee rises for new members: the plan redefined, and one member joins under it.
    await subs.plan({ id: 'gym', amount: '65', currency: 'EUR', every: 'month', retry: ['3d'] });
    await subs.subscribe({
      key: 'c-new',
      plan: 'gym',
      payer: payer('233244555603'),
      startAt: Date.UTC(2026, 2, 5, 9),
    });
    await subs.runDue(); // c-new's mandate (stating 65 EUR) approved; its first charge 5 March
    const stored = await subs.get('a-short');
    expect(stored).toMatchObject({ status: 'PAST_DUE', period: 1 });

    const due = await runCli([
      'subscriptions',
      'due',
      '--store',
      `file:${dir}`,
      '--until',
      '2026-03-31T10:00:00Z',
      '--json',
    ]);
    expect(due.code, due.stderr).toBe(0);
    // a-short's retry (50), b-old's period 2 (50), c-new's period 0 (65): 165, not 3 x 65.
    expect(JSON.parse(due.stdout)).toMatchObject({
      subscriptions: 3,
      groups: [{ plan: 'gym', currency: 'EUR', charges: 3, retries: 1, amount: '165' }],
      totals: { EUR: '165' },
    });
    const text = await runCli([
      'subscriptions',
      'due',
      '--store',
      `file:${dir}`,
      '--until',
      '2026-03-31T10:00:00Z',
    ]);
    expect(text.stdout).toContain('gym: 3 charges (1 retry), 165 EUR');
  }, 60_000);

  it('a cancelled subscription watched for its unanswered mandate (ST10) is not counted as due', async () => {
    const sim = createSimulator({ settleMs: 0, clock: { now: () => T0 }, tokenTtlSeconds: 1e8 });
    const store = join(dir, 'watched');
    const subs = new Subscriptions(sim.client(), {
      store: fileSubscriptionStore(join(store, 'subscriptions')),
      secret: 'cli-subscriptions-due-terms-secret-01',
      now: () => sim.clock.now(),
    });
    await subs.plan({ id: 'gym', amount: '50', currency: 'EUR', every: 'month' });
    // 123453 never answers: the mandate stays pending, and the cancelled subscription due.
    await subs.subscribe({ key: 'gone', plan: 'gym', payer: payer('233244123453'), startAt: T0 });
    await subs.subscribe({ key: 'here', plan: 'gym', payer: payer('233244555604'), startAt: T0 });
    await subs.runDue();
    await subs.cancel('gone');
    expect(await subs.list({ dueBefore: T0 + 40 * DAY })).toHaveLength(2);
    const due = await runCli([
      'subscriptions',
      'due',
      '--store',
      `file:${store}`,
      '--until',
      '2026-03-05T10:00:00Z',
      '--json',
    ]);
    expect(due.code, due.stderr).toBe(0);
    expect(JSON.parse(due.stdout)).toMatchObject({
      subscriptions: 1,
      groups: [{ plan: 'gym', charges: 1, amount: '50', awaitingMandate: 0 }],
    });
  }, 60_000);
});
