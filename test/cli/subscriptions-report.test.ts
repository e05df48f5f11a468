import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubscriptionStore } from 'momo-partner-sdk';
import { createRedisState } from 'momo-partner-sdk/redis';
import { fileSubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConnectedClient, connectClient } from '../redis/support/clients';
import { describeWithRedis, RedisServer } from '../redis/support/redis-server';
import { runCli } from './support';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 31, 9);
const SECRET = 'cli-subscriptions-report-secret-01';
const payer = (partyId: string) => ({ partyIdType: 'MSISDN' as const, partyId });

/**
 * Three months of a gym on `store` (the library, on the simulator's clock): one member
 * paying, one whose charge fails (NOT_ENOUGH_FUNDS, no retries: cancelled, the period
 * unpaid), one paused for February.
 */
async function threeMonths(store: SubscriptionStore) {
  const sim = createSimulator({ settleMs: 0, clock: { now: () => T0 }, tokenTtlSeconds: 1e8 });
  const subs = new Subscriptions(sim.client(), {
    store,
    secret: SECRET,
    now: () => sim.clock.now(),
    invoicePayee: payer('233244000001'),
    concurrency: 1, // one at a time, in key order: the injected refusal meets 'a-short'
  });
  await subs.plan({ id: 'gym', amount: '50', currency: 'EUR', every: 'month', retry: [] });
  await subs.subscribe({ key: 'paying', plan: 'gym', payer: payer('233244555501'), startAt: T0 });
  await subs.subscribe({ key: 'a-short', plan: 'gym', payer: payer('233244555502'), startAt: T0 });
  await subs.subscribe({ key: 'paused', plan: 'gym', payer: payer('233244555503'), startAt: T0 });
  const day = async (n: number) => {
    for (let d = 0; d < n; d++) {
      sim.clock.advance(DAY);
      await subs.runDue();
    }
  };
  await day(1); // 1 February: period 0 paid by all
  await subs.pause('paused', { until: Date.UTC(2026, 2, 1) });
  const empty = { code: 'NOT_ENOUGH_FUNDS', message: 'The payer does not have enough funds.' };
  sim.inject({
    kind: 'status',
    status: 500,
    body: empty,
    match: 'POST /collection/v1_0/requesttopay',
    times: 1,
  });
  await day(27); // 28 February: 'a-short' fails first (the injection), then the others pay
  await day(40); // to 9 April
  return { sim, subs };
}

const FROM = '2026-01-01T00:00:00Z';
const TO = '2026-04-01T00:00:00Z';

describe('subscriptions report (CLI)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'momo-subs-report-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('--store file:<dir>: per period who paid, arrears, skipped; CSV and --json', async () => {
    const { subs } = await threeMonths(fileSubscriptionStore(join(dir, 'subscriptions')));
    const expected = await subs.report({ from: new Date(FROM), to: new Date(TO) });
    const json = await runCli([
      'subscriptions',
      'report',
      '--store',
      `file:${dir}`,
      '--from',
      FROM,
      '--to',
      TO,
      '--json',
    ]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toEqual(JSON.parse(JSON.stringify(expected)));
    const rows = report.periods.map((p: { key: string; period: number; status: string }) =>
      [p.key, p.period, p.status].join(' '),
    );
    expect(rows).toEqual([
      'a-short 0 PAID',
      'a-short 1 UNPAID',
      'paused 0 PAID',
      'paused 1 SKIPPED',
      'paused 2 PAID',
      'paying 0 PAID',
      'paying 1 PAID',
      'paying 2 PAID',
    ]);

    const csv = await runCli([
      'subscriptions',
      'report',
      '--state-dir',
      dir,
      '--from',
      FROM,
      '--to',
      TO,
    ]);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'key,plan,period,starts_at,amount,currency,status,reference_id,paid_at,arrears_amount,arrears_since,mandate_expires_at',
    );
    expect(lines).toHaveLength(1 + 8);
    expect(lines[4]).toMatch(/^paused,gym,1,2026-02-28T09:00:00.000Z,50,EUR,SKIPPED,/);
  });

  it('subscriptions --help lists due, run and report, each with --store', async () => {
    const help = await runCli(['subscriptions', '--help']);
    expect(help.code).toBe(0);
    for (const name of ['subscriptions due', 'subscriptions run', 'subscriptions report']) {
      expect(help.stdout).toContain(`Usage: momo-partner-sdk ${name}`);
    }
    expect(help.stdout.match(/--store <where>/g)).toHaveLength(3);
  });
});

describeWithRedis('subscriptions due|report --store redis:// (real redis-server)', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('node-redis', server.url);
  });
  afterAll(async () => {
    await redis?.close();
    await server?.dispose();
  });

  it('reads the Redis state the library wrote', async () => {
    const state = createRedisState(redis.client, { prefix: 'gym:' });
    const { subs } = await threeMonths(state.subscriptionStore);
    const expected = await subs.report({ from: new Date(FROM), to: new Date(TO) });
    const where = `${server.url}?prefix=gym:`;
    const run = await runCli([
      'subscriptions',
      'report',
      '--store',
      where,
      '--from',
      FROM,
      '--to',
      TO,
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
    const due = await runCli([
      'subscriptions',
      'due',
      '--store',
      where,
      '--until',
      '2026-12-31T00:00:00Z',
      '--json',
    ]);
    expect(due.code).toBe(0);
    expect(JSON.parse(due.stdout).subscriptions).toBe(2); // 'a-short' cancelled: its schedule spent
  });
});
