import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as postgres from 'momo-partner-sdk/postgres';
import * as subscriptions from 'momo-partner-sdk/subscriptions';
import type { Simulator } from 'momo-partner-sdk/testing';
import * as testing from 'momo-partner-sdk/testing';
import pg from 'pg';
import { expect, it } from 'vitest';
import { usePostgres } from '../postgres/support';
import { describeWithPostgres } from '../support/postgres-server';
import { collectSnippets, evalSnippet } from '../support/snippets';

// docs/subscriptions.md's recipe, run as written on a scratch PostgreSQL: its imports
// handed in (the simulator it creates kept, to count what reached the provider), its
// console collected and compared with the output the page shows, the gym's table read.
const root = resolve(import.meta.dirname, '../..');
const doc = readFileSync(resolve(root, 'docs/subscriptions.md'), 'utf8');
const section = /^## Recipe[^\n]*\n([\s\S]*?)(?=^## )/m.exec(doc)?.[1] ?? '';
const printed = /```text\n([\s\S]*?)```/.exec(section)?.[1]?.trim().split('\n') ?? [];
const recipe = collectSnippets(root).find(
  (s) => s.where.startsWith('docs/subscriptions.md') && s.heading.startsWith('Recipe'),
);

describeWithPostgres('docs/subscriptions.md recipe (PostgreSQL)', () => {
  const pg15 = usePostgres();

  it('a gym member: signed up, a charge failed and retried, invoiced, renewed, moved to a dearer plan, reported, cancelled', async () => {
    expect(recipe?.code).toContain('store: db.subscriptionStore');
    expect(recipe?.code).toContain('onCharge: async (charge, tx?: pg.PoolClient)');
    expect(recipe?.code).toContain("subs.changePlan('member-42', 'gym-monthly-60')");
    expect(recipe?.code).toContain('subs.report({ from: ');
    const logged: string[] = [];
    const sims: Simulator[] = [];
    const { host, port, user, database } = pg15.server().config;
    // The recipe's own pool, ended by the test too should the recipe fail half-way.
    const pools: pg.Pool[] = [];
    class Pool extends pg.Pool {
      constructor(config?: pg.PoolConfig) {
        super(config);
        this.on('error', () => {});
        pools.push(this);
      }
    }
    await evalSnippet(
      recipe as NonNullable<typeof recipe>,
      {
        'momo-partner-sdk/postgres': postgres,
        'momo-partner-sdk/subscriptions': subscriptions,
        'momo-partner-sdk/testing': {
          ...testing,
          createSimulator: (...args: Parameters<typeof testing.createSimulator>) => {
            const sim = testing.createSimulator(...args);
            sims.push(sim);
            return sim;
          },
        },
        pg: { default: { ...pg, Pool } },
      },
      {
        console: { log: (...values: unknown[]) => logged.push(values.join(' ').trim()) },
        process: { env: { DATABASE_URL: `postgres://${user}@${host}:${port}/${database}` } },
      },
    )
      .finally(async () => {
        for (const pool of pools) if (!pool.ended) await pool.end();
      })
      .catch((error: unknown) => {
        throw new Error(`the recipe threw after printing ${JSON.stringify(logged)}`, {
          cause: error,
        });
      });
    // What the page says it prints, line for line.
    expect(printed.length).toBeGreaterThan(10);
    expect(logged).toEqual(printed);

    // The gym's table: closed at the cancel, five months paid, each booked once.
    const pool = pg15.pool();
    const members = await pool.query('SELECT id, access, paid_months FROM gym_members');
    expect(members.rows).toEqual([{ id: 'member-42', access: 'closed', paid_months: 5 }]);
    // The SDK's row beside it: cancelled, every charge final and none owed its onCharge.
    const stored = (await postgres.createPostgresState(pool).subscriptionStore.get('member-42'))
      ?.subscription;
    expect(stored).toMatchObject({
      status: 'CANCELLED',
      reason: 'cancelled',
      period: 5,
      plan: 'gym-monthly-60',
    });
    expect(stored?.dueAt).toBeUndefined();
    // Each period's amount the terms its mandate stated: 50 EUR before the change, 60 after.
    expect(
      stored?.charges.map((c) => [c.period, c.attempt, c.status, c.invoice?.status, c.amount]),
    ).toEqual([
      [0, 1, 'SUCCESSFUL', undefined, '50'],
      [1, 1, 'FAILED', undefined, '50'],
      [1, 2, 'FAILED', undefined, '50'],
      [1, 3, 'FAILED', 'SUCCESSFUL', '50'],
      [2, 1, 'SUCCESSFUL', undefined, '50'],
      [3, 1, 'SUCCESSFUL', undefined, '50'],
      [4, 1, 'SUCCESSFUL', undefined, '60'],
    ]);
    expect(stored?.charges.some((c) => 'delivered' in c || 'notified' in c)).toBe(false);

    // At the provider: three pre-approvals, the mandate (run out on 1 May), its renewal and
    // the plan change's (both cancelled, by the change and the cancel); one invoice, paid; a request to pay per paid period, sent once
    // (period 1's three attempts were refused on arrival: nothing created).
    const sim = sims[0] as Simulator;
    expect(sims).toHaveLength(1);
    const ops = (operation: string) => sim.transactions.filter((t) => t.operation === operation);
    expect(ops('collection.preApproval').map((t) => t.preApproval?.state)).toEqual([
      'EXPIRED',
      'CANCELLED',
      'CANCELLED',
    ]);
    // The plan change's mandate stated the new terms to the payer.
    const messages = ops('collection.preApproval').map(
      (t) => (t.body as { payerMessage?: string }).payerMessage ?? '',
    );
    expect(messages.map((m) => /^\d+ EUR a month/.exec(m)?.[0])).toEqual([
      '50 EUR a month',
      '50 EUR a month',
      '60 EUR a month',
    ]);
    expect(ops('collection.createInvoice').map((t) => t.status)).toEqual(['SUCCESSFUL']);
    expect(ops('collection.requestToPay').map((t) => [t.tag, t.status, t.amount])).toEqual([
      ['member-42/0', 'SUCCESSFUL', '50'],
      ['member-42/2', 'SUCCESSFUL', '50'],
      ['member-42/3', 'SUCCESSFUL', '50'],
      ['member-42/4', 'SUCCESSFUL', '60'],
    ]);
  }, 120_000);
});
