import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectNoneOf, runCli, useLoopbackSimulator } from './support';

// `subscriptions due|run` as child processes against a loopback simulator on a clock the
// test moves; the subscriptions are made by the library on the same --state-dir.
const T0 = Date.UTC(2026, 0, 31, 9); // 31 January 2026, 09:00 UTC
let time = T0;
const { sim, env } = useLoopbackSimulator({
  settleMs: 0,
  clock: { now: () => time },
  tokenTtlSeconds: 20 * 365 * 86_400,
});
// Each test its own secret: its reference ids are its own at the shared simulator.
let SECRET = '';
let tests = 0;
/** The simulator's transactions before this test. */
let mark = 0;
const MINUTE = 60_000;
// A second simulator whose payers take a day (on the same clock) to answer.
const slow = useLoopbackSimulator({
  settleMs: 86_400_000,
  clock: { now: () => time },
  tokenTtlSeconds: 20 * 365 * 86_400,
});
const payer = (partyId: string) => ({ partyIdType: 'MSISDN' as const, partyId });

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-subscriptions-'));
  time = T0;
  tests += 1;
  SECRET = `cli-subscriptions-secret-${tests}-7f3a9c`;
  mark = sim.transactions.length;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const stateDir = () => join(dir, 'state');

/** The partner's code: plans and subscriptions through the library, in the state folder. */
async function signUp() {
  const subs = new Subscriptions(sim.client(), {
    store: fileSubscriptionStore(join(stateDir(), 'subscriptions')),
    secret: SECRET,
    now: () => time,
  });
  await subs.plan({ id: 'gym-monthly', amount: '50', currency: 'EUR', every: 'month', retry: [] });
  await subs.plan({
    id: 'locker-weekly',
    amount: '12.25',
    currency: 'EUR',
    every: 'week',
    retry: [],
  });
  await subs.subscribe({
    key: 'member-1',
    plan: 'gym-monthly',
    payer: payer('233244555301'),
    startAt: T0,
  });
  await subs.subscribe({
    key: 'member-2',
    plan: 'gym-monthly',
    payer: payer('233244555302'),
    startAt: T0,
  });
  // 123453: a payer who answers no prompt: the mandate waits until sim.decide approves it.
  return subs.subscribe({
    key: 'locker-3',
    plan: 'locker-weekly',
    payer: payer('233244123453'),
    startAt: T0,
  });
}

/** `subscriptions <what>` at `at` (MOMO_NOW, the simulator's clock moved there too). */
function cli(what: 'due' | 'run', at: number, more: string[] = [], extraEnv = {}) {
  time = at;
  const args = ['subscriptions', what, '--state-dir', stateDir(), ...more];
  const vars = { ...env(), MOMO_SUBSCRIPTION_SECRET: SECRET, MOMO_NOW: new Date(at).toISOString() };
  return runCli(args, { ...vars, ...extraEnv });
}

/** Requests to pay the simulator received, per `<key>/<period>`. */
function charged(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tx of sim.transactions.slice(mark)) {
    if (tx.operation !== 'collection.requestToPay') continue;
    const tag = tx.tag ?? '(untagged)';
    out[tag] = (out[tag] ?? 0) + 1;
  }
  return out;
}

describe('momo-partner-sdk subscriptions', { timeout: 90_000 }, () => {
  it('due lists what is due per plan; run charges each once; a second run charges nobody', async () => {
    const locker = await signUp();
    const due0 = await cli('due', T0, ['--json']);
    expect(due0.code, due0.stderr).toBe(0);
    expect(JSON.parse(due0.stdout)).toMatchObject({
      until: new Date(T0).toISOString(),
      subscriptions: 3,
      groups: [
        { plan: 'gym-monthly', currency: 'EUR', subscriptions: 2, charges: 0, awaitingMandate: 2 },
        {
          plan: 'locker-weekly',
          currency: 'EUR',
          subscriptions: 1,
          charges: 0,
          awaitingMandate: 1,
        },
      ],
      totals: {},
    });

    // The gym's members approve at once; the locker's payer answers no prompt.
    const first = await cli('run', T0);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('2 SUCCESSFUL, 0 FAILED');
    expect(first.stdout).toContain('gym-monthly: 100 EUR collected (2 charges)');
    expect(first.stderr).toContain('subscriptions run: 2 charges ended (successful 2, failed 0');
    expect(charged()).toEqual({ 'member-1/0': 1, 'member-2/0': 1 });

    sim.decide(locker.mandate.referenceId, 'approve');
    const second = await cli('run', T0 + 2 * MINUTE, ['--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe(''); // --json: no progress
    const summary = JSON.parse(second.stdout);
    expect(summary).toMatchObject({
      counts: { successful: 1, failed: 0, pending: 0 },
      collected: [{ plan: 'locker-weekly', currency: 'EUR', charges: 1, amount: '12.25' }],
      errors: [],
    });
    expect(summary.charges).toMatchObject([{ key: 'locker-3', period: 0, status: 'SUCCESSFUL' }]);

    const again = await cli('run', T0 + 2 * MINUTE, ['--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ charges: [], counts: { successful: 0 } });

    // A month on: each gym member's next charge, and the locker's next week (its first
    // due one only), as exact decimals.
    const monthLater = Date.UTC(2026, 1, 28, 9);
    const due1 = await cli('due', T0 + 2 * MINUTE, ['--until', new Date(monthLater).toISOString()]);
    expect(due1.code, due1.stderr).toBe(0);
    expect(due1.stdout).toContain('gym-monthly: 2 charges, 100 EUR');
    expect(due1.stdout).toContain('locker-weekly: 1 charges, 12.25 EUR');
    expect(due1.stdout).toContain('total EUR: 112.25');

    const month = await cli('run', monthLater);
    expect(month.code, month.stderr).toBe(0);
    const rerun = await cli('run', monthLater);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain('0 SUCCESSFUL, 0 FAILED');
    expect(charged()).toEqual({
      'member-1/0': 1,
      'member-2/0': 1,
      'member-1/1': 1,
      'member-2/1': 1,
      'locker-3/0': 1,
      'locker-3/1': 1,
      'locker-3/2': 1,
      'locker-3/3': 1,
      'locker-3/4': 1,
    });
    const store = fileSubscriptionStore(join(stateDir(), 'subscriptions'));
    expect((await store.get('member-1'))?.subscription).toMatchObject({
      status: 'ACTIVE',
      period: 2,
    });
    expectNoneOf(month, [SECRET, sim.credentials.apiUser.key]);
  });

  it('a charge FAILED for a reason worth retrying exits 0 (retry scheduled), and the retry collects', async () => {
    const subs = new Subscriptions(sim.client(), {
      store: fileSubscriptionStore(join(stateDir(), 'subscriptions')),
      secret: SECRET,
      now: () => time,
    });
    await subs.plan({ id: 'dues', amount: '7.5', currency: 'EUR', every: 'month', retry: ['1d'] });
    await subs.subscribe({
      key: 'saver-1',
      plan: 'dues',
      payer: payer('233244555311'),
      startAt: T0,
    });
    // The payer's wallet refuses the first charge (a business refusal, as the provider sends it).
    const empty = { code: 'NOT_ENOUGH_FUNDS', message: 'The payer does not have enough funds.' };
    sim.inject({
      kind: 'status',
      status: 500,
      body: empty,
      match: 'POST /collection/v1_0/requesttopay',
      times: 1,
    });
    const refused = await cli('run', T0);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toContain('0 SUCCESSFUL, 1 FAILED (1 to be retried)');
    const due = await cli('due', T0, [
      '--until',
      new Date(T0 + 86_400_000).toISOString(),
      '--json',
    ]);
    expect(JSON.parse(due.stdout).groups).toEqual([
      {
        plan: 'dues',
        currency: 'EUR',
        subscriptions: 1,
        charges: 1,
        retries: 1,
        amount: '7.5',
        awaitingMandate: 0,
      },
    ]);
    const retried = await cli('run', T0 + 86_400_000);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain('dues: 7.5 EUR collected (1 charges)');
    // The refused first attempt created nothing at the provider; its retry did, once.
    expect(charged()).toEqual({ 'saver-1/0': 1 });
  });

  it('exits 5 while a charge is still PENDING at --timeout-ms; the next run looks it up', async () => {
    const subs = new Subscriptions(slow.sim.client(), {
      store: fileSubscriptionStore(join(stateDir(), 'subscriptions')),
      secret: SECRET,
      now: () => time,
    });
    await subs.plan({ id: 'dues', amount: '7.5', currency: 'EUR', every: 'month', retry: [] });
    await subs.subscribe({
      key: 'slow-1',
      plan: 'dues',
      payer: payer('233244555321'),
      startAt: T0,
    });
    // --timeout-ms 50 is no race: the payer answers a simulated day later, so the charge is
    // PENDING at the end of the pass however slow the machine.
    const onSlow = (at: number) =>
      cli('run', at, ['--timeout-ms', '50'], { MOMO_BASE_URL: slow.url() });
    const asked = await onSlow(T0); // the mandate asked; the payer answers a day later
    expect(asked.code, asked.stdout + asked.stderr).toBe(0);
    const pending = await onSlow(T0 + 86_400_000 + MINUTE); // approved: the charge sent
    expect(pending.code, pending.stdout + pending.stderr).toBe(5);
    expect(pending.stdout).toMatch(/PENDING slow-1 period 0 \(.+\): run again to look it up/);
    const settled = await onSlow(T0 + 2 * 86_400_000 + 2 * MINUTE);
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(settled.stdout).toContain('dues: 7.5 EUR collected (1 charges)');
  });

  it('exits 2 on bad usage, before anything is sent', async () => {
    const missing = await cli('due', T0, ['--state-dir', join(dir, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No subscriptions under');
    await signUp();
    const until = await cli('due', T0, ['--until', 'next tuesday']);
    expect(until.code).toBe(2);
    expect(until.stderr).toContain('--until must be an ISO 8601 time');
    const now = await cli('run', T0, [], { MOMO_NOW: 'yesterday' });
    expect(now.code).toBe(2);
    expect(now.stderr).toContain('MOMO_NOW must be an ISO 8601 time');
    const secret = await cli('run', T0, [], { MOMO_SUBSCRIPTION_SECRET: 'short' });
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain('MOMO_SUBSCRIPTION_SECRET must be at least 16 characters');
    const timeout = await cli('run', T0, ['--timeout-ms', '-1']);
    expect(timeout.code).toBe(2);
  });

  it('exits 3 when the provider cannot be reached, and a later run charges', async () => {
    await signUp();
    const down = await cli('run', T0, [], { MOMO_BASE_URL: 'http://127.0.0.1:9' });
    expect(down.code, down.stderr + down.stdout).toBe(3);
    expect(down.stdout).toContain('got no answer from the provider');
    // The mandates were not known: looked at again a minute (recheckMs) later.
    const up = await cli('run', T0 + 2 * MINUTE);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout + up.stderr).toContain('2 SUCCESSFUL');
  });

  it('--help says what each command does and which store it reads', async () => {
    const due = await runCli(['subscriptions', 'due', '--help']);
    expect(due.code).toBe(0);
    expect(due.stdout).toContain('Usage: momo-partner-sdk subscriptions due');
    expect(due.stdout).toContain('--store <where>');
    expect(due.stdout).toContain('redis://host:6379');
    const run = await runCli(['subscriptions', 'run', '--help']);
    expect(run.stdout).toContain('MOMO_SUBSCRIPTION_SECRET');
    const group = await runCli(['subscriptions', '--help']);
    expect(group.stdout).toContain('subscriptions run');
  });
});
