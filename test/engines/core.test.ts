import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { describe, expect, it } from 'vitest';
import { lookupJob, prepareItems, runPaymentJob } from '../../src/engines';
import { PAYEE, row, useSimulator } from '../batches/harness';

// The engine-neutral core of DESIGN 10.5 (src/engines), on the batch runner's rules: the
// adapters' tests (test/redis/bullmq-*.test.ts) run it under a real engine.
const h = useSimulator();
const secret = 'engine-secret-0123456789';

describe('prepareItems', () => {
  it('checks every item first: a pay job per valid item, a reject job per bad one, no secret in any job', async () => {
    const items = [
      row('a', PAYEE.ok),
      { key: 'bad', body: { amount: 'ten' } },
      row('a', PAYEE.ok, '11.00'),
      { key: '', body: {} },
    ];
    const prepared = await prepareItems({ batch: 'b1', items, secret });
    expect(prepared.jobs.map((j) => [j.data.kind, j.data.key])).toEqual([
      ['pay', 'a'],
      ['reject', 'bad'],
    ]);
    expect(prepared.rejected.map((r) => [r.index, r.key])).toEqual([
      [1, 'bad'],
      [2, 'a'],
      [3, ''],
    ]);
    expect(JSON.stringify(prepared.jobs)).not.toContain(secret);
    expect(prepared.jobs[0]?.jobId).toMatch(/^momo-[0-9a-f]{32}$/);
  });

  it('refuses a missing or short secret before anything', async () => {
    await expect(prepareItems({ batch: 'b', items: [], secret: 'short' })).rejects.toThrow(
      /secret/,
    );
  });
});

describe('runPaymentJob', () => {
  it('sends once under the derived id; a second run of the job sends nothing and reports the same', async () => {
    const store = memoryBatchStore();
    const momo = h.client();
    const { jobs } = await prepareItems({ batch: 'b2', items: [row('k', PAYEE.ok)], secret });
    const data = jobs[0]?.data as NonNullable<(typeof jobs)[0]>['data'];
    const first = await runPaymentJob(momo, { secret, store }, data);
    const second = await runPaymentJob(momo, { secret, store }, data);
    expect(first.status).toBe('SUCCESSFUL');
    expect(second).toEqual(first);
    expect(h.transferPosts()).toEqual([first.referenceId]);
    const report = await new Batches(momo).report('b2', { store });
    expect(report.items).toMatchObject([{ key: 'k', status: 'SUCCESSFUL' }]);
  });

  it('a changed item under a used key is REJECTED, nothing sent; a bad item is REJECTED in the stored report', async () => {
    const store = memoryBatchStore();
    const momo = h.client();
    const ctx = { secret, store };
    const one = await prepareItems({ batch: 'b3', items: [row('k', PAYEE.ok)], secret });
    await runPaymentJob(momo, ctx, (one.jobs[0] as (typeof one.jobs)[0]).data);
    const changed = await prepareItems({
      batch: 'b3',
      items: [row('k', PAYEE.ok, '99.00')],
      secret,
    });
    const result = await runPaymentJob(momo, ctx, (changed.jobs[0] as (typeof one.jobs)[0]).data);
    expect(result).toMatchObject({ status: 'REJECTED', reason: expect.stringContaining('used') });
    expect(h.transferPosts()).toHaveLength(1);
    const bad = await prepareItems({ batch: 'b3', items: [{ key: 'x', body: {} }], secret });
    const rejected = await runPaymentJob(momo, ctx, (bad.jobs[0] as (typeof one.jobs)[0]).data);
    expect(rejected.status).toBe('REJECTED');
    const report = await new Batches(momo).report('b3', { store });
    expect(report.items.map((i) => [i.key, i.status])).toEqual([
      ['k', 'SUCCESSFUL'],
      ['x', 'REJECTED'],
    ]);
    expect(report.summary.rejected).toBe(1);
    expect(h.transferPosts()).toHaveLength(1);
  });

  it('not final by its deadline: PENDING, and its lookup job ends it without a second send', async () => {
    const store = memoryBatchStore();
    const momo = h.client();
    const { jobs } = await prepareItems({ batch: 'b4', items: [row('p', PAYEE.pending)], secret });
    const data = (jobs[0] as (typeof jobs)[0]).data;
    const first = await runPaymentJob(momo, { secret, store }, data, {
      deadline: Date.now() + 200,
    });
    expect(first.status).toBe('PENDING');
    h.sim.decide(first.referenceId as string, 'approve');
    const later = await runPaymentJob(momo, { secret, store }, lookupJob(data));
    expect(later.status).toBe('SUCCESSFUL');
    expect(h.transferPosts()).toHaveLength(1);
  });
});
