import { isValidationError } from 'momo-partner-sdk';
import { type ReconcileProgress, reconcile } from 'momo-partner-sdk/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookups, type Platform, platform, transfer } from './support';

let a: Platform;

beforeAll(async () => {
  a = await platform();
});

afterAll(async () => {
  await a.http.close();
});

const unknownIds = (n: number) =>
  Array.from({ length: n }, () => ({
    referenceId: crypto.randomUUID(),
    operation: 'disbursement.transfer',
  }));

async function refusal(run: () => Promise<unknown>) {
  const error = await run().then(
    () => new Error('expected a ValidationError'),
    (e: unknown) => e,
  );
  if (!isValidationError(error)) throw error;
  return error;
}

describe('reconcile(momo, records): input', () => {
  it('checks every record before the first lookup: a bad one is a ValidationError naming it, nothing sent', async () => {
    const momo = a.client();
    const requestsBefore = a.sim.requests.length;
    const error = await refusal(() =>
      reconcile(momo, [
        ...unknownIds(2),
        { referenceId: crypto.randomUUID(), operation: 'disbursement.tranfser' },
        { referenceId: 'order-12', operation: 'collection.redeemVoucher', amount: '1,000' },
        {
          referenceId: crypto.randomUUID(),
          operation: 'collection.requestToPay',
          status: 'PAID',
          currency: 'euro',
        },
      ]),
    );
    expect(error.field).toBe('records[2].operation');
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'records[2].operation',
      'records[3].referenceId',
      'records[3].operation',
      'records[3].amount',
      'records[4].status',
      'records[4].currency',
    ]);
    expect(error.message).toContain(
      '"disbursement.tranfser" is not an operation with a status lookup',
    );
    expect(error.message).toContain('"collection.redeemVoucher" has no status lookup');
    expect(error.message).toContain('Nothing was sent');
    expect(a.sim.requests.length).toBe(requestsBefore);
  });

  it('refuses a bad concurrency, and records that are not an iterable', async () => {
    const momo = a.client();
    expect((await refusal(() => reconcile(momo, [], { concurrency: 0 }))).field).toBe(
      'concurrency',
    );
    expect((await refusal(() => reconcile(momo, 42 as never))).field).toBe('records');
    expect((await refusal(() => reconcile(momo, [null as never]))).field).toBe('records[0]');
  });

  it('reads an async iterable one record at a time, keeps input order, empty cells not compared', async () => {
    const momo = a.client();
    const paid = await momo.disbursement.transfer(transfer('30'));
    await paid.wait();
    const ids = unknownIds(5);
    async function* books() {
      yield* ids.slice(0, 2);
      yield {
        referenceId: paid.referenceId,
        operation: 'disbursement.transfer',
        status: 'SUCCESSFUL',
        amount: '',
        currency: '',
      };
      yield* ids.slice(2);
    }
    const result = await reconcile(momo, books(), { concurrency: 4 });
    expect(result.items.map((item) => item.record.referenceId)).toEqual([
      ids[0]?.referenceId,
      ids[1]?.referenceId,
      paid.referenceId,
      ...ids.slice(2).map((r) => r.referenceId),
    ]);
    expect(result.summary).toMatchObject({ total: 6, MATCH: 1, NOT_FOUND: 5 });
    expect(await reconcile(momo, [])).toMatchObject({ items: [], summary: { total: 0, MATCH: 0 } });
  });

  it('keeps at most `concurrency` lookups in flight, and reports progress after each record', async () => {
    let inFlight = 0;
    let most = 0;
    const momo = a.client({
      hooks: {
        onRequest: (info) => {
          if (info.method === 'GET') most = Math.max(most, ++inFlight);
        },
        onResponse: (info) => {
          if (info.method === 'GET') inFlight--;
        },
      },
    });
    const progress: ReconcileProgress[] = [];
    const result = await reconcile(momo, unknownIds(12), {
      concurrency: 3,
      onProgress: (p) => {
        progress.push(p);
        throw new Error('a broken progress bar does not stop the run');
      },
    });
    expect(most).toBe(3);
    expect(progress.map((p) => p.checked)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(progress.at(-1)).toEqual({ ...result.summary, checked: 12 });
    expect(progress[0]).toMatchObject({ total: 12, NOT_FOUND: 1, checked: 1 });
  });

  it('stops on its signal: no lookup starts after the abort, and the promise rejects', async () => {
    const momo = a.client();
    const controller = new AbortController();
    const before = lookups(a.sim).length;
    const run = reconcile(momo, unknownIds(10), {
      concurrency: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.checked === 2) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(lookups(a.sim).length - before).toBe(2);
    await expect(
      reconcile(momo, unknownIds(1), { signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
