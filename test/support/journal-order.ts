import type { Journal } from 'momo-partner-sdk';
import { expect } from 'vitest';

const PLATFORM = { baseUrl: 'http://127.0.0.1:1', targetEnvironment: 'sandbox' };

/**
 * What every journal's `pending()` promises: oldest first, and entries of the same
 * millisecond in the order they were recorded (never by reference id). The ids are
 * recorded in descending order, so an id-ordered tie-break fails this.
 */
export async function expectPendingInRecordOrder(journal: Journal): Promise<void> {
  const createdAt = Date.now();
  const ids = ['f', 'e', 'd', 'c', 'b', 'a'].map(
    (c) => `${c.repeat(8)}-0a1b-4c2d-8e3f-405162738495`,
  );
  const older = 'ffffffff-9999-4c2d-8e3f-405162738495';
  for (const referenceId of ids) {
    await journal.record({
      product: 'disbursement',
      operation: 'disbursement.deposit',
      referenceId,
      createdAt,
      ...PLATFORM,
    });
  }
  await journal.record({
    product: 'collection',
    operation: 'collection.requestToPay',
    referenceId: older,
    createdAt: createdAt - 1,
    ...PLATFORM,
  });
  expect((await journal.pending()).map((entry) => entry.referenceId)).toEqual([older, ...ids]);
  // Finished and recorded again later: it is the newest record now.
  await journal.finish(ids[0] as string, 'SUCCESSFUL', createdAt);
  await journal.record({
    product: 'disbursement',
    operation: 'disbursement.deposit',
    referenceId: ids[0] as string,
    createdAt,
    ...PLATFORM,
  });
  expect((await journal.pending()).map((entry) => entry.referenceId)).toEqual([
    older,
    ...ids.slice(1),
    ids[0],
  ]);
}
