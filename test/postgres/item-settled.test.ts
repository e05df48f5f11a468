/**
 * `batches.run({ onItemSettled })` on the PostgreSQL batch store: the hook runs in the
 * transaction that records the item's outcome (both commit, or a throw rolls both back and
 * the next run runs it again), as docs/postgres.md shows; and that page's join of the
 * SDK's tables to the partner's keys, run as written.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  Batches,
  type BatchItem,
  type BatchRunOptions,
  type SettledBatchItem,
} from 'momo-partner-sdk/batches';
import * as postgres from 'momo-partner-sdk/postgres';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from '../batches/harness';
import { runsAThrowingHookAgainOnTheNextRun } from '../support/item-settled';
import { describeWithPostgres } from '../support/postgres-server';
import { collectSnippets, evalSnippet } from '../support/snippets';
import { usePostgres } from './support';

const h = useSimulator();
const root = resolve(import.meta.dirname, '../..');
const HEADING = "Your rows beside the SDK's: each item as it settles, and one join";
const doc = readFileSync(resolve(root, 'docs/postgres.md'), 'utf8');
const section = new RegExp(`^## ${HEADING}\\n([\\s\\S]*?)(?=^## )`, 'm').exec(doc)?.[1] ?? '';
const joins = (/```sql\n([\s\S]*?)```/.exec(section)?.[1] ?? '')
  .split(/;\s*\n/)
  .filter((q) => q.trim());
const recipe = collectSnippets(root).find(
  (s) => s.where.startsWith('docs/postgres.md') && s.heading === HEADING,
);
const items = () => [
  row('r1', PAYEE.ok, '10.25'),
  row('r2', PAYEE.rejected, '5'),
  row('r3', PAYEE.ok, '20.50'),
];

/** The snippet's own pools: listened to and ended (the server goes away after the file). */
const snippetPools: pg.Pool[] = [];
class SnippetPool extends pg.Pool {
  constructor(config?: pg.PoolConfig) {
    super(config);
    this.on('error', () => {});
    snippetPools.push(this);
  }
}

describeWithPostgres('onItemSettled on the PostgreSQL batch store (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  afterAll(async () => {
    await Promise.all(snippetPools.map((pool) => pool.end()));
  });
  const db = () => createPostgresState(pg15.pool()); // schema momo, as the docs
  beforeAll(async () => {
    await db().migrate();
    await pg15.pool().query(`
      CREATE TABLE payouts (batch_id text, row_key text, amount numeric, status text,
        reference_id text, PRIMARY KEY (batch_id, row_key));
      CREATE TABLE orders (id text PRIMARY KEY);`);
  });
  const status = async (batchId: string, key: string, on: pg.Pool | pg.PoolClient) =>
    (
      await on.query('SELECT status FROM momo.batch_items WHERE batch_id = $1 AND key = $2', [
        batchId,
        key,
      ])
    ).rows[0]?.status;

  it("runs in the transaction that records the item's outcome: the docs' hook commits with it", async () => {
    const batchId = 'payroll-2026-11';
    for (const key of ['r1', 'r2', 'r3', 'r9']) {
      await pg15
        .pool()
        .query('INSERT INTO payouts (batch_id, row_key, amount) VALUES ($1, $2, 1)', [
          batchId,
          key,
        ]);
    }
    const { host, port, user, database } = pg15.server().config;
    const seen: [string, unknown, unknown][] = [];
    const momo = h.client();
    // Watches each hook: inside its transaction the outcome is written, outside not yet.
    class WatchedBatches extends Batches {
      override run<Tx>(
        rows: Iterable<BatchItem> | AsyncIterable<BatchItem>,
        options: BatchRunOptions<Tx>,
      ) {
        return super.run<Tx>(rows, {
          ...options,
          onItemSettled: async (item, tx) => {
            const inside = await status(item.batchId, item.key, tx as pg.PoolClient);
            seen.push([item.key, inside, await status(item.batchId, item.key, pg15.pool())]);
            await options.onItemSettled?.(item, tx);
          },
        });
      }
    }
    await evalSnippet(
      recipe as NonNullable<typeof recipe>,
      {
        'momo-partner-sdk/batches': { Batches: WatchedBatches },
        'momo-partner-sdk/postgres': postgres,
        pg: { default: { ...pg, Pool: SnippetPool } },
      },
      {
        momo,
        rows: items(),
        process: { env: { DATABASE_URL: `postgres://${user}@${host}:${port}/${database}` } },
      },
    );
    expect(seen.sort()).toEqual([
      ['r1', 'SUCCESSFUL', 'SENT'],
      ['r2', 'FAILED', 'SENT'],
      ['r3', 'SUCCESSFUL', 'SENT'],
    ]);
    const { rows } = await pg15
      .pool()
      .query('SELECT row_key, status FROM payouts WHERE batch_id = $1 ORDER BY row_key', [batchId]);
    expect(rows).toEqual([
      { row_key: 'r1', status: 'SUCCESSFUL' },
      { row_key: 'r2', status: 'FAILED' },
      { row_key: 'r3', status: 'SUCCESSFUL' },
      { row_key: 'r9', status: null },
    ]);
  });

  it("rolls back the hook's writes with the outcome when it throws; the next run commits both", async () => {
    const batchId = 'payroll-rollback';
    const store = db().batchStore;
    let booksDown = true;
    const onItemSettled = async (item: SettledBatchItem, tx?: pg.PoolClient) => {
      await tx?.query('INSERT INTO payouts (batch_id, row_key, status) VALUES ($1, $2, $3)', [
        item.batchId,
        item.key,
        item.status,
      ]);
      if (booksDown && item.key === 'r2') throw new Error('the books are down');
    };
    const first = await new Batches(h.client()).run(items(), { id: batchId, store, onItemSettled });
    expect(first.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'UNRESOLVED', 'SUCCESSFUL']);
    const books = async () =>
      (
        await pg15
          .pool()
          .query('SELECT row_key FROM payouts WHERE batch_id = $1 ORDER BY row_key', [batchId])
      ).rows.map((r) => r.row_key);
    expect(await books()).toEqual(['r1', 'r3']); // r2's insert rolled back
    expect(await status(batchId, 'r2', pg15.pool())).toBe('SENT'); // and its outcome
    booksDown = false;
    const second = await new Batches(h.client()).run(items(), {
      id: batchId,
      store,
      onItemSettled,
    });
    expect(second.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'FAILED', 'SUCCESSFUL']);
    expect(await books()).toEqual(['r1', 'r2', 'r3']);
    expect(await status(batchId, 'r2', pg15.pool())).toBe('FAILED');
  });

  it('runs a throwing hook again on the next run, nothing sent again', async () => {
    await runsAThrowingHookAgainOnTheNextRun(h, db().batchStore);
  });

  it("joins the SDK's tables to the partner's keys with the docs' queries, as written", async () => {
    expect(joins).toHaveLength(2);
    const state = db();
    const client = await pg15.pool().connect();
    try {
      await client.query('BEGIN');
      await client.query("INSERT INTO orders (id) VALUES ('o1'), ('o2')");
      await state.outbox.enqueue(client, {
        key: 'o1',
        operation: 'collection.requestToPay',
        body: {
          amount: '12.40',
          currency: 'EUR',
          externalId: 'o1',
          payer: { partyIdType: 'MSISDN', partyId: '46733123999' },
          payerMessage: 'Order o1',
          payeeNote: 'Order o1',
        },
      });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const payouts = (await pg15.pool().query(joins[0] as string)).rows.filter(
      (r) => r.batch_id === 'payroll-2026-11',
    );
    expect(payouts.map((r) => [r.row_key, r.status, r.reason])).toEqual([
      ['r1', 'SUCCESSFUL', null],
      ['r2', 'FAILED', 'APPROVAL_REJECTED'],
      ['r3', 'SUCCESSFUL', null],
      ['r9', null, null], // never run
    ]);
    expect(payouts[0]?.financial_transaction_id).toEqual(expect.any(String));
    expect(payouts[0]?.reference_id).toMatch(/^[0-9a-f-]{36}$/);
    const orders = (await pg15.pool().query(joins[1] as string)).rows;
    expect(orders.map((r) => [r.id, r.status, r.amount, r.currency])).toEqual([
      ['o1', 'QUEUED', '12.40', 'EUR'],
      ['o2', null, null, null],
    ]);
    expect(await state.outbox.get('o1')).toMatchObject({ amount: '12.40', currency: 'EUR' });
  });
});
