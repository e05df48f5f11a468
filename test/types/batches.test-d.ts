import { type BatchStore, MomoClient } from 'momo-partner-sdk';
import {
  Batches,
  type BatchItem,
  type BatchReport,
  type BatchRunOptions,
  fileBatchStore,
  memoryBatchStore,
  type SettledBatchItem,
} from 'momo-partner-sdk/batches';
import type { PostgresPoolClient } from 'momo-partner-sdk/postgres';
import {
  type ConformanceReport,
  checkBatchStore,
  checkOutboxStore,
} from 'momo-partner-sdk/testing';
import { describe, expectTypeOf, it } from 'vitest';

describe('batch types', () => {
  it('runs arrays and async iterables of items with a store, and types the report', () => {
    const momo = new MomoClient({ baseUrl: 'https://momo.example', targetEnvironment: 'sandbox' });
    expectTypeOf(memoryBatchStore()).toExtend<BatchStore>();
    expectTypeOf(fileBatchStore('./.momo')).toExtend<BatchStore>();
    const items: BatchItem[] = [{ key: 'k', body: {}, operation: 'remittance.transfer' }];
    async function* stream(): AsyncGenerator<BatchItem> {
      yield* items;
    }
    const options: BatchRunOptions = { id: 'b', store: memoryBatchStore() };
    expectTypeOf(new Batches(momo).run(items, options)).resolves.toEqualTypeOf<BatchReport>();
    expectTypeOf(new Batches(momo).run(stream(), options)).resolves.toEqualTypeOf<BatchReport>();
    type Status = BatchReport['items'][number]['status'];
    expectTypeOf<Status>().toEqualTypeOf<
      'SUCCESSFUL' | 'FAILED' | 'REJECTED' | 'SKIPPED' | 'UNRESOLVED'
    >();
    // @ts-expect-error the store is required
    new Batches(momo).run(items, { id: 'b' });
    // @ts-expect-error not an operation a batch can run
    new Batches(momo).run([{ key: 'k', body: {}, operation: 'collection.redeemVoucher' }], options);
  });

  it('gives onItemSettled the settled item, and tx as the hook declares it', () => {
    const momo = new MomoClient({ baseUrl: 'https://momo.example', targetEnvironment: 'sandbox' });
    new Batches(momo).run([], {
      id: 'b',
      store: memoryBatchStore(),
      onItemSettled: (item, tx) => {
        expectTypeOf(item).toEqualTypeOf<SettledBatchItem>();
        expectTypeOf(item.status).toEqualTypeOf<'SUCCESSFUL' | 'FAILED'>();
        expectTypeOf(tx).toEqualTypeOf<unknown>();
      },
    });
    new Batches(momo).run([], {
      id: 'b',
      store: memoryBatchStore(),
      onItemSettled: async (_item, tx?: PostgresPoolClient) => {
        await tx?.query('SELECT 1');
      },
    });
  });

  it('checks a store of any kind, resolving with a report', () => {
    expectTypeOf(
      checkBatchStore(() => memoryBatchStore()),
    ).resolves.toEqualTypeOf<ConformanceReport>();
    // @ts-expect-error the outbox suite needs the store and how intents get in
    checkOutboxStore(() => memoryBatchStore());
  });
});
