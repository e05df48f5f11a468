import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import express from 'express';
import * as sdk from 'momo-partner-sdk';
import * as postgres from 'momo-partner-sdk/postgres';
import pg from 'pg';
import { expect, it } from 'vitest';
import { PAYEE, useSimulator } from '../batches/harness';
import { providerOptions } from '../postgres/outbox-crash-support';
import { usePostgres } from '../postgres/support';
import { until } from '../redis/support/instances';
import { freePort } from '../redis/support/redis-server';
import { describeWithPostgres } from '../support/postgres-server';
import { collectSnippets, evalSnippet } from '../support/snippets';

// docs/postgres.md's "An order route" run as written: its SQL creates the orders table
// on a scratch PostgreSQL, its Express app and relay run against a loopback simulator,
// orders are placed over HTTP, and its SIGTERM handler shuts it down.
const root = resolve(import.meta.dirname, '../..');
const doc = readFileSync(resolve(root, 'docs/postgres.md'), 'utf8');
const section = /^## An order route\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(doc)?.[1] ?? '';
const sql = /```sql\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const recipe = collectSnippets(root).find(
  (s) => s.where.startsWith('docs/postgres.md') && s.heading === 'An order route',
);

describeWithPostgres('docs/postgres.md "An order route"', () => {
  const pg15 = usePostgres();
  const h = useSimulator(50);

  it('commits each order with its payment, refuses a bad one whole, settles the orders', async () => {
    expect(sql).toContain('CREATE TABLE orders');
    expect(recipe?.code).toContain('db.outbox.enqueue(client');
    const pool = pg15.pool();
    await pool.query(sql);
    const port = await freePort();
    const { host, port: dbPort, user, database } = pg15.server().config;
    const onSignal = new Map<string, () => Promise<void>>();
    await evalSnippet(
      recipe as NonNullable<typeof recipe>,
      {
        express: { default: express },
        'momo-partner-sdk': sdk,
        'momo-partner-sdk/postgres': postgres,
        pg: { default: pg },
      },
      {
        options: providerOptions(h),
        console,
        process: {
          env: {
            DATABASE_URL: `postgres://${user}@${host}:${dbPort}/${database}`,
            PORT: String(port),
          },
          once: (signal: string, handler: () => Promise<void>) => onSignal.set(signal, handler),
        },
      },
    );
    const url = `http://127.0.0.1:${port}`;
    const place = (order: object) =>
      fetch(`${url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(order),
      });
    // app.listen() binds on a later turn: wait until the app answers (404 for a GET).
    await until(() =>
      fetch(url).then(
        () => true,
        () => false,
      ),
    );

    // The simulator's magic numbers decide for a payer as for a payee.
    const paid = await place({ id: 'order-1', msisdn: PAYEE.ok, amount: '25' });
    const declined = await place({ id: 'order-2', msisdn: PAYEE.rejected, amount: '40' });
    const local = await place({ id: 'order-3', msisdn: '0244000111', amount: '10' });
    expect([paid.status, declined.status, local.status]).toEqual([201, 201, 400]);
    expect(await local.json()).toMatchObject({ field: 'body.payer.partyId' });
    const answers = [(await paid.json()) as Placed, (await declined.json()) as Placed];

    const orders = async () => (await pool.query('SELECT id, status FROM orders ORDER BY id')).rows;
    await until(async () => (await orders()).every((o) => o.status !== 'PLACED'), 20_000);
    expect(await orders()).toEqual([
      { id: 'order-1', status: 'SUCCESSFUL' },
      { id: 'order-2', status: 'FAILED' },
    ]);
    // One request to pay per order, under the reference id the route answered.
    expect(h.sim.transactions.map((tx) => [tx.referenceId, tx.payer?.partyId, tx.amount])).toEqual([
      [answers[0]?.referenceId, PAYEE.ok, '25'],
      [answers[1]?.referenceId, PAYEE.rejected, '40'],
    ]);
    const db = postgres.createPostgresState(pool);
    expect(await db.outbox.get('order-1')).toMatchObject({ status: 'SUCCESSFUL' });
    expect(await db.outbox.get('order-3')).toBeUndefined();
    expect(await db.outbox.pending()).toEqual([]);

    expect(onSignal.has('SIGTERM')).toBe(true);
    await onSignal.get('SIGTERM')?.(); // the recipe's own shutdown: relay, state, pool
  });
});

interface Placed {
  id: string;
  referenceId: string;
  status: string;
}
