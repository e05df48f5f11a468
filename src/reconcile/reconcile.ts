// The client's public surface only: its guards and errors (re-exported whole by the
// main entry) and its types.

import type { ClientSurface } from '../client-surface';
import type { JournalEntry } from '../contracts/journal';
import { isApiError, isNotFoundError, ValidationError } from '../errors';
import { lookupFor } from './operations';
import { type Books, RecordChecks, verdictOf } from './records';
import type {
  ReconcileItem,
  ReconcileOptions,
  ReconcileRecord,
  ReconcileResult,
  ReconcileSummary,
  ReconcileVerdict,
} from './types';

const DEFAULT_CONCURRENCY = 8;

interface Pending<R extends ReconcileRecord> {
  record: R;
  books: Books;
}

/**
 * `momo.reconcile(records, options)`: the partner's books against the provider. Every
 * record is read and checked first (a bad one is a ValidationError naming it: nothing is
 * looked up); then each is looked up through the client's public `getX` method, a few at
 * a time, unless the client's journal says it went to another platform.
 */
export async function reconcile<R extends ReconcileRecord>(
  momo: ClientSurface,
  records: Iterable<R> | AsyncIterable<R>,
  options: ReconcileOptions = {},
): Promise<ReconcileResult<R>> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ValidationError(
      [{ path: 'concurrency', message: 'must be a whole number, 1 or more' }],
      { operation: 'reconcile' },
    );
  }
  const { signal } = options;
  signal?.throwIfAborted();
  const pending = await readAll(records);
  signal?.throwIfAborted();

  const items: ReconcileItem<R>[] = new Array(pending.length);
  const summary = emptySummary(pending.length);
  const here = momo.toJSON();
  let next = 0;
  let checked = 0;
  const worker = async () => {
    while (next < pending.length && !signal?.aborted) {
      const index = next++;
      const { record, books } = pending[index] as Pending<R>;
      const item = await check(momo, here, record, books, signal);
      if (signal?.aborted) return;
      items[index] = item;
      summary[item.verdict]++;
      checked++;
      try {
        options.onProgress?.({ ...summary, checked });
      } catch {
        // A failing progress report must not stop the reconciliation.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
  signal?.throwIfAborted();
  return { items, summary };
}

/** Reads every record, checking each; the first problems found refuse the run. */
async function readAll<R extends ReconcileRecord>(
  records: Iterable<R> | AsyncIterable<R>,
): Promise<Pending<R>[]> {
  if (records === null || typeof records !== 'object' || !isIterable(records)) {
    throw new ValidationError(
      [{ path: 'records', message: 'must be an iterable or an async iterable of records' }],
      { operation: 'reconcile' },
    );
  }
  const checks = new RecordChecks();
  const pending: Pending<R>[] = [];
  let index = 0;
  for await (const record of records) {
    const books = checks.check(record, index++);
    // Once one record is bad, the others are only checked (nothing will be looked up).
    if (books && checks.issues.length === 0) pending.push({ record, books });
  }
  const error = checks.error();
  if (error) throw error;
  return pending;
}

function isIterable(value: object): boolean {
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

async function check<R extends ReconcileRecord>(
  momo: ClientSurface,
  here: { baseUrl: string; targetEnvironment: string },
  record: R,
  books: Books,
  signal: AbortSignal | undefined,
): Promise<ReconcileItem<R>> {
  try {
    const entry = await momo.journal.get(record.referenceId);
    if (entry && !samePlatform(entry, here)) {
      const reason = `sent to ${entry.baseUrl} (${entry.targetEnvironment}): reconcile it with a client of that platform`;
      return { record, verdict: 'OTHER_PLATFORM', reason, entry };
    }
    const lookup = lookupFor(record.operation);
    if (typeof lookup === 'string') throw new Error(`no lookup for ${record.operation}`); // checked before
    const found = await lookup(momo, record.referenceId, signal ? { signal } : {});
    return { record, found, ...verdictOf(books, found) };
  } catch (error) {
    if (isNotFoundError(error) || (isApiError(error) && error.code === 'RESOURCE_NOT_FOUND')) {
      return { record, verdict: 'NOT_FOUND' };
    }
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { record, verdict: 'ERROR', reason, error };
  }
}

function samePlatform(
  entry: Pick<JournalEntry, 'baseUrl' | 'targetEnvironment'>,
  here: { baseUrl: string; targetEnvironment: string },
): boolean {
  return entry.baseUrl === here.baseUrl && entry.targetEnvironment === here.targetEnvironment;
}

function emptySummary(total: number): ReconcileSummary {
  const verdicts: ReconcileVerdict[] = [
    'MATCH',
    'SETTLED',
    'MISMATCH',
    'STILL_PENDING',
    'NOT_FOUND',
    'OTHER_PLATFORM',
    'ERROR',
  ];
  return Object.assign({ total }, ...verdicts.map((verdict) => ({ [verdict]: 0 })));
}
