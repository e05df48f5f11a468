import { isValidationError } from 'momo-partner-sdk';
import {
  Batches,
  type BatchItem,
  type BatchProgress,
  memoryBatchStore,
} from 'momo-partner-sdk/batches';
import { describe, expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from './harness';

const h = useSimulator();

describe('new Batches(momo).run', () => {
  it('pays a list: one report entry per item in input order, a summary with amounts and failures', async () => {
    const momo = h.client();
    const progress: BatchProgress[] = [];
    const items = [
      row('r1', PAYEE.ok, '10.25'),
      row('r2', PAYEE.rejected, '5'),
      row('r3', PAYEE.ok, '20.50'),
      row('r4', PAYEE.notFound, '1.10'),
    ];
    const report = await new Batches(momo).run(items, {
      id: 'payroll-2026-11',
      store: memoryBatchStore(),
      concurrency: 2,
      createRate: 50,
      onProgress: (p) => progress.push(p),
    });

    expect(report.items.map((i) => [i.key, i.status, i.reason])).toEqual([
      ['r1', 'SUCCESSFUL', undefined],
      ['r2', 'FAILED', 'APPROVAL_REJECTED'],
      ['r3', 'SUCCESSFUL', undefined],
      ['r4', 'FAILED', 'PAYEE_NOT_FOUND'],
    ]);
    expect(report.summary).toEqual({
      total: 4,
      successful: 2,
      failed: 2,
      rejected: 0,
      skipped: 0,
      unresolved: 0,
      amounts: { EUR: { successful: '30.75', failed: '6.10' } },
      failures: { APPROVAL_REJECTED: 1, PAYEE_NOT_FOUND: 1 },
    });
    // Every item created once on the server, under the id the report gives, with its status.
    expect(h.sim.transactions).toHaveLength(4);
    for (const item of report.items) {
      const tx = h.sim.transaction(item.referenceId as string);
      expect(tx?.status).toBe(item.status);
      expect((tx?.body as { externalId?: string } | undefined)?.externalId).toBe(item.key);
      if (item.status === 'SUCCESSFUL') {
        expect(item.financialTransactionId).toBe(tx?.financialTransactionId);
      }
    }
    expect(progress.at(-1)).toEqual({
      total: 4,
      rejected: 0,
      skipped: 0,
      sent: 4,
      successful: 2,
      failed: 2,
      pending: 0,
    });
  });

  it('checks every item before the first send; invalid and duplicate rows are REJECTED, never sent', async () => {
    const momo = h.client();
    let postsWhenLastRead = -1;
    const rows: BatchItem[] = [
      row('ok-1', PAYEE.ok),
      row('bad-amount', PAYEE.ok, '-5'),
      { key: 'no-payee', body: { amount: '1', currency: 'EUR' } },
      { ...row('bad-op', PAYEE.ok), operation: 'collection.redeemVoucher' as never },
      row('ok-1', PAYEE.ok, '99'), // a duplicate key
      { key: '', body: row('x', PAYEE.ok).body },
      row('ok-2', PAYEE.ok),
    ];
    async function* stream() {
      for (const [i, item] of rows.entries()) {
        if (i === rows.length - 1) postsWhenLastRead = h.transferPosts().length;
        yield item;
      }
    }
    const report = await new Batches(momo).run(stream(), { id: 'b', store: memoryBatchStore() });

    expect(postsWhenLastRead).toBe(0);
    const byKey = report.items.map((i) => [i.key, i.status, i.reason?.split(':')[0]]);
    expect(byKey).toEqual([
      ['ok-1', 'SUCCESSFUL', undefined],
      ['bad-amount', 'REJECTED', 'body.amount'],
      ['no-payee', 'REJECTED', 'body.payee'],
      ['bad-op', 'REJECTED', 'operation'],
      ['ok-1', 'REJECTED', 'key'],
      ['', 'REJECTED', 'key'],
      ['ok-2', 'SUCCESSFUL', undefined],
    ]);
    expect(report.items[4]?.reason).toContain('"ok-1"');
    expect(report.summary.rejected).toBe(5);
    // Only the two valid rows reached the server.
    expect(h.transferPosts()).toHaveLength(2);
    expect(h.sim.transactions.map((t) => (t.body as { amount: string }).amount)).toEqual([
      '10.00',
      '10.00',
    ]);
  });

  it('checkAccountHolder: an inactive payee is SKIPPED and not sent', async () => {
    const momo = h.client();
    const report = await new Batches(momo).run([row('a', PAYEE.ok), row('b', PAYEE.notFound)], {
      id: 'checked',
      store: memoryBatchStore(),
      checkAccountHolder: true,
    });
    expect(report.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'SKIPPED']);
    expect(report.summary.skipped).toBe(1);
    expect(h.transferPosts()).toEqual([report.items[0]?.referenceId]);
    const checks = h.sim.requests.filter((r) => r.path.includes('/accountholder/msisdn/'));
    expect(checks).toHaveLength(2);
  });

  it('dryRun: checks everything and sends nothing', async () => {
    const momo = h.client();
    const store = memoryBatchStore();
    const report = await new Batches(momo).run([row('a', PAYEE.ok), row('b', PAYEE.ok, 'ten')], {
      id: 'dry',
      store,
      dryRun: true,
      secret: 'a-partner-secret-of-32-characters',
    });
    expect(report.items.map((i) => [i.status, i.reason?.split(':')[0]])).toEqual([
      ['UNRESOLVED', 'not sent (dry run)'],
      ['REJECTED', 'body.amount'],
    ]);
    expect(report.items[0]?.referenceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab]/);
    expect(h.sim.requests.filter((r) => r.method === 'POST' && !r.path.includes('token'))).toEqual(
      [],
    );
    const recorded: unknown[] = [];
    for await (const r of (await store.open('dry')).records()) recorded.push(r);
    expect(recorded).toEqual([]);
  });

  it('a 429 slows the batch, not fails it: the call is made again under the same reference id', async () => {
    const momo = h.client({ maxRetries: 0 });
    h.sim.inject({
      match: 'POST /disbursement/v1_0/transfer',
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '0' },
      times: 3,
    });
    const report = await new Batches(momo).run([row('a', PAYEE.ok)], {
      id: 'limited',
      store: memoryBatchStore(),
    });
    expect(report.items[0]?.status).toBe('SUCCESSFUL');
    const posts = h.transferPosts();
    expect(posts).toHaveLength(4);
    expect(new Set(posts)).toEqual(new Set([report.items[0]?.referenceId]));
  });

  it('reads a re-readable source twice, and stops before sending an item whose second reading differs', async () => {
    const momo = h.client();
    let readings = 0;
    const source = {
      *[Symbol.iterator]() {
        readings += 1;
        yield row('a', PAYEE.ok);
        yield row(readings === 1 ? 'b' : 'b-edited', PAYEE.ok);
      },
    };
    const run = new Batches(momo).run(source, {
      id: 'twice',
      store: memoryBatchStore(),
      concurrency: 1,
    });
    await expect(run).rejects.toThrow(/items changed between the check and the send/);
    expect(readings).toBe(2);
    expect(h.sim.transactions.map((t) => (t.body as { externalId: string }).externalId)).toEqual([
      'a',
    ]);
  });

  it('refuses bad options with a ValidationError naming them, before reading an item', async () => {
    const momo = h.client();
    const refused = async (options: object) => {
      try {
        await new Batches(momo).run([row('a', PAYEE.ok)], options as never);
      } catch (error) {
        return isValidationError(error) ? error.issues.map((i) => i.path) : error;
      }
      return 'resolved';
    };
    expect(await refused({ id: 'x' })).toEqual(['store']);
    expect(await refused({ store: memoryBatchStore() })).toEqual(['id']);
    expect(
      await refused({ id: 'x', store: memoryBatchStore(), concurrency: 0, createRate: -1 }),
    ).toEqual(['concurrency', 'createRate']);
    expect(await refused({ id: 'x', store: memoryBatchStore(), secret: 'short' })).toEqual([
      'secret',
    ]);
    expect(await refused({ id: 'x', store: memoryBatchStore(), operation: 'nope' })).toEqual([
      'operation',
    ]);
    expect(h.sim.requests).toEqual([]);
  });
});
