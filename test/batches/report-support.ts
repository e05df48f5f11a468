import { isValidationError } from 'momo-partner-sdk';
import { Batches, type BatchReport, type BatchSummary } from 'momo-partner-sdk/batches';
import { expect } from 'vitest';
import { type Harness, PAYEE, row } from './harness';

/** Paid, paid, failed at the provider: a report with every final status a store records. */
export const reportRows = [
  row('emp-1', PAYEE.ok, '10.00'),
  row('emp-2', PAYEE.ok, '20.50'),
  row('emp-3', PAYEE.rejected, '5.00'),
];

/** The run's summary as a store-only report gives it: no amounts (a store holds no body). */
export const withoutAmounts = (summary: BatchSummary): BatchSummary => ({
  ...summary,
  amounts: {},
});

/**
 * Runs `reportRows` as batch `id` on `runStore` (one at a time: the store records them in
 * input order), then reads the report back from `readStore` (another process's view of
 * the same store): the run's items and counts, and not one request to the provider.
 */
export async function expectReportAsRun(
  h: Harness,
  runStore: Parameters<Batches['report']>[1]['store'],
  readStore: Parameters<Batches['report']>[1]['store'],
  id = 'payroll-2027-01',
): Promise<BatchReport> {
  const momo = h.client();
  const ran = await new Batches(momo).run(reportRows, { id, store: runStore, concurrency: 1 });
  expect(ran.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL', 'FAILED']);
  const requestsBefore = h.sim.requests.length;

  const read = await new Batches(momo).report(id, { store: readStore });

  expect(h.sim.requests.length - requestsBefore).toBe(0);
  expect(read.items).toEqual(ran.items);
  expect(read.summary).toEqual(withoutAmounts(ran.summary));
  expect(read.summary.failures).toEqual({ APPROVAL_REJECTED: 1 });
  return read;
}

/** An unknown batch: a ValidationError naming it, and nothing asked of the provider. */
export async function expectUnknownBatch(
  h: Harness,
  store: Parameters<Batches['report']>[1]['store'],
  id: string,
): Promise<void> {
  const requestsBefore = h.sim.requests.length;
  const error = await new Batches(h.client()).report(id, { store }).catch((e: unknown) => e);
  expect(isValidationError(error)).toBe(true);
  expect(isValidationError(error) && error.issues[0]?.path).toBe('batch');
  expect((error as Error).message).toContain(`"${id}"`);
  expect(h.sim.requests.length - requestsBefore).toBe(0);
}
