import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MomoClient, type OutboxPayment } from 'momo-partner-sdk';
import type { PostgresState } from 'momo-partner-sdk/postgres';
import { reconcile } from 'momo-partner-sdk/reconcile';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAYEE } from '../batches/harness';
import { runCli, useLoopbackSimulator } from '../cli/support';
import {
  booksCsv,
  expectEachReported,
  expectReport,
  sendByEveryRoad,
} from '../reconcile/store-scenario';
import { describeWithPostgres } from '../support/postgres-server';
import { allDelivered, freshShop, order } from './outbox-support';
import { usePostgres } from './support';

describeWithPostgres('reconcile from the PostgreSQL state (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  const { sim, url, env } = useLoopbackSimulator();
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'momo-reconcile-pg-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A shop whose client (of the loopback simulator, as the CLI's) keeps its journal in `db`. */
  async function shop() {
    const db = await freshShop(pg15);
    const momo = new MomoClient({
      ...sim.credentials,
      baseUrl: url(),
      journal: db.journal,
      polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 10_000 },
    });
    /** Order `order-1` paid through the outbox, its relay run until it is delivered. */
    const outboxPayment = async () => {
      const referenceId = await order(pg15.pool(), db, 'order-1', PAYEE.ok);
      const relay = db.outbox.start(momo, { onSettled: async () => {} });
      await allDelivered(pg15.pool(), db.schema);
      await relay.stop();
      return referenceId;
    };
    return { db, momo, outboxPayment };
  }

  async function listed(db: PostgresState): Promise<OutboxPayment[]> {
    const all: OutboxPayment[] = [];
    for await (const payment of db.outbox.payments()) all.push(payment);
    return all;
  }

  it('reconcile(momo, books, { journal, outbox, batchStore }): a duplicate, an unchecked amount and what the books lack', async () => {
    const { db, momo, outboxPayment } = await shop();
    const sent = await sendByEveryRoad(momo, sim, db.batchStore, outboxPayment);
    expect(await listed(db)).toEqual([
      expect.objectContaining({
        key: 'order-1',
        referenceId: sent.ids.outbox,
        status: 'SUCCESSFUL',
      }),
    ]);
    const result = await reconcile(momo, sent.books, {
      journal: db.journal,
      outbox: db.outbox,
      batchStore: db.batchStore,
    });
    expectEachReported(sent, result.items);
    expect(result.summary).toMatchObject({ total: 6, MISSING_FROM_BOOKS: 3, DUPLICATE: 1 });
    // `since` narrows the journal and the outbox; a batch has no time.
    const later = await reconcile(momo, sent.books, {
      journal: db.journal,
      outbox: db.outbox,
      since: new Date(Date.now() + 60_000),
    });
    expect(later.summary.MISSING_FROM_BOOKS).toBe(0);
  });

  it('the listings page through more than one page', async () => {
    const db = await freshShop(pg15);
    const at = Date.now();
    const ids = Array.from({ length: 1_100 }, () => crypto.randomUUID());
    for (const [i, referenceId] of ids.entries()) {
      await db.journal.record({
        product: 'disbursement',
        operation: 'disbursement.transfer',
        referenceId,
        createdAt: at + Math.floor(i / 3), // ties: three of a millisecond
        baseUrl: 'http://127.0.0.1:1',
        targetEnvironment: 'sandbox',
      });
    }
    const seen: string[] = [];
    for await (const entry of db.journal.entries()) seen.push(entry.referenceId);
    expect(seen).toEqual(ids);
    const fromHalf: string[] = [];
    for await (const entry of db.journal.entries({ since: at + 200 })) {
      fromHalf.push(entry.referenceId);
    }
    expect(fromHalf).toEqual(ids.slice(600));
  });

  it('CLI reconcile --from-store postgres://...?schema=: the payments the books lack, from its journal, outbox and batches', async () => {
    const { db, momo, outboxPayment } = await shop();
    const sent = await sendByEveryRoad(momo, sim, db.batchStore, outboxPayment);
    const file = join(dir, 'books.csv');
    await writeFile(file, booksCsv(sent));
    const { host, port, user, database } = pg15.server().config;
    const store = `postgres://${user}@${host}:${port}/${database}?schema=${db.schema}`;
    const run = await runCli(['reconcile', file, '--from-store', store], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('2 MATCH, 1 DUPLICATE, 3 MISSING_FROM_BOOKS');
    expectReport(sent, await readFile(join(dir, 'books.report.csv'), 'utf8'));
  });
});
