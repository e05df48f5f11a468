import { InMemoryJournal, MomoClient } from 'momo-partner-sdk';
import { memoryBatchStore } from 'momo-partner-sdk/batches';
import {
  type ReconcileItem,
  type ReconcileRecord,
  type ReconcileStoreRecord,
  type ReconcileSummary,
  type ReconcileVerdict,
  reconcile,
} from 'momo-partner-sdk/reconcile';
import { describe, expectTypeOf, it } from 'vitest';

describe('momo.reconcile types', () => {
  it("keeps the partner's own record type on each item, and names every verdict", async () => {
    const momo = new MomoClient({ baseUrl: 'https://momo.example', targetEnvironment: 'sandbox' });
    type Row = ReconcileRecord & { line: number; note: string };
    async function* rows(): AsyncGenerator<Row> {}
    const result = await reconcile(momo, rows(), { concurrency: 4 });
    expectTypeOf(result.items).toEqualTypeOf<ReconcileItem<Row>[]>();
    expectTypeOf(result.items[0]!.record.line).toEqualTypeOf<number>();
    expectTypeOf(result.summary).toEqualTypeOf<ReconcileSummary>();
    expectTypeOf(result.summary.OTHER_PLATFORM).toEqualTypeOf<number>();
    expectTypeOf<ReconcileVerdict>().toEqualTypeOf<
      | 'MATCH'
      | 'SETTLED'
      | 'MISMATCH'
      | 'STILL_PENDING'
      | 'NOT_FOUND'
      | 'OTHER_PLATFORM'
      | 'ERROR'
      | 'DUPLICATE'
      | 'MISSING_FROM_BOOKS'
    >();
    expectTypeOf(result.items[0]!.duplicateOf).toEqualTypeOf<number | undefined>();
    // With a store, the items the books lack carry a ReconcileStoreRecord.
    const fromStore = await reconcile(momo, rows(), {
      journal: new InMemoryJournal(),
      batchStore: memoryBatchStore(),
    });
    expectTypeOf(fromStore.items).toEqualTypeOf<ReconcileItem<Row | ReconcileStoreRecord>[]>();
    expectTypeOf<ReconcileStoreRecord['source']>().toEqualTypeOf<'journal' | 'outbox' | 'batch'>();
    // @ts-expect-error a record needs its operation
    await reconcile(momo, [{ referenceId: 'x' }]);
  });
});
