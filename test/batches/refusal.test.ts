import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { describe, expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from './harness';

const h = useSimulator();

/** A row in a currency the account does not take: the provider answers 500 INVALID_CURRENCY. */
const inCedis = (key: string) => {
  const item = row(key, PAYEE.ok);
  return { ...item, body: { ...(item.body as object), currency: 'GHS' } };
};

describe('a batch item the provider refuses, or whose answer is not known', () => {
  it('a 500 business refusal (INVALID_CURRENCY) is FAILED with its code, in the report and the store, sent once', async () => {
    const momo = h.client();
    const store = memoryBatchStore();
    const items = [row('r1', PAYEE.ok), inCedis('r2')];
    const report = await new Batches(momo).run(items, { id: 'refusals', store, createRate: 50 });

    expect(report.items.map((i) => [i.key, i.status, i.reason])).toEqual([
      ['r1', 'SUCCESSFUL', undefined],
      ['r2', 'FAILED', 'INVALID_CURRENCY'],
    ]);
    expect(report.summary).toMatchObject({
      failed: 1,
      unresolved: 0,
      failures: { INVALID_CURRENCY: 1 },
    });
    // Not resent: the client does not retry it, and the batch takes it as final.
    const refusedId = report.items[1]?.referenceId as string;
    expect(h.transferPosts().filter((id) => id === refusedId)).toHaveLength(1);
    const record = await (await store.open('refusals')).get('r2');
    expect(record?.outcome).toEqual({ status: 'FAILED', reason: 'INVALID_CURRENCY' });

    // A rerun reads it final from the store: nothing sent again.
    const posts = h.transferPosts().length;
    const again = await new Batches(momo).run(items, { id: 'refusals', store, createRate: 50 });
    expect(again.items.map((i) => [i.key, i.status, i.reason])).toEqual([
      ['r1', 'SUCCESSFUL', undefined],
      ['r2', 'FAILED', 'INVALID_CURRENCY'],
    ]);
    expect(h.transferPosts()).toHaveLength(posts);
  });

  it.each([
    [408, 'REQUEST_TIMEOUT'],
    [500, 'INTERNAL_PROCESSING_ERROR'],
  ])(
    'a %i that outlived the retries is not known yet: UNRESOLVED, its record left to a rerun',
    async (status, code) => {
      const momo = h.client({ maxRetries: 0 });
      const store = memoryBatchStore();
      h.sim.inject({
        kind: 'status',
        status,
        body: { code, message: 'try later' },
        match: 'POST /disbursement/v1_0/transfer',
      });
      const report = await new Batches(momo).run([row('r1', PAYEE.ok)], { id: 'unknown', store });
      expect(report.items.map((i) => [i.status, i.reason])).toEqual([['UNRESOLVED', code]]);
      const record = await (await store.open('unknown')).get('r1');
      expect(record?.outcome).toBeUndefined();

      // The rerun sends it again under the same reference id.
      const again = await new Batches(momo).run([row('r1', PAYEE.ok)], { id: 'unknown', store });
      expect(again.items.map((i) => i.status)).toEqual(['SUCCESSFUL']);
      expect(again.items[0]?.referenceId).toBe(report.items[0]?.referenceId);
    },
  );
});
