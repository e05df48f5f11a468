import {
  type BatchItem,
  type BatchReport,
  type BatchRunOptions,
  type BatchStore,
  fileBatchStore,
  MomoClient,
  memoryBatchStore,
} from 'momo-partner-sdk';
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
    expectTypeOf(momo.batches.run(items, options)).resolves.toEqualTypeOf<BatchReport>();
    expectTypeOf(momo.batches.run(stream(), options)).resolves.toEqualTypeOf<BatchReport>();
    type Status = BatchReport['items'][number]['status'];
    expectTypeOf<Status>().toEqualTypeOf<
      'SUCCESSFUL' | 'FAILED' | 'REJECTED' | 'SKIPPED' | 'UNRESOLVED'
    >();
    // @ts-expect-error the store is required
    momo.batches.run(items, { id: 'b' });
    // @ts-expect-error not an operation a batch can run
    momo.batches.run([{ key: 'k', body: {}, operation: 'collection.redeemVoucher' }], options);
  });
});
