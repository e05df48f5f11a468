// The client's public surface only: its guards and errors (re-exported whole by the
// main entry) and its types.

import type { ClientSurface } from '../client-surface';
import type { JournalEntry } from '../contracts/journal';
import { isApiError, isNotFoundError, ValidationError } from '../errors';
import { forEachLimited } from '../payments/concurrency-limit';
import { lookupFor } from './operations';
import { type Books, RecordChecks, verdictOf } from './records';
import { checkStores, missingFromBooks, missingReason, type StorePayment } from './stores';
import type {
  ReconcileFound,
  ReconcileFromStoreOptions,
  ReconcileItem,
  ReconcileOptions,
  ReconcileRecord,
  ReconcileResult,
  ReconcileStoreRecord,
  ReconcileStores,
  ReconcileSummary,
  ReconcileVerdict,
} from './types';

const DEFAULT_CONCURRENCY = 8;

/** One record of the books, with what is compared; `duplicateOf` for a repeated id. */
interface Pending<R extends ReconcileRecord> {
  record: R;
  books: Books;
  duplicateOf?: number;
}

/** What is checked, in order: the books' records, then the payments the books lack. */
type Task<R extends ReconcileRecord> = Pending<R> | StorePayment;

/**
 * `reconcile(momo, records, options)`: the partner's books against the provider. Every
 * record is read and checked first (a bad one is a ValidationError naming it: nothing is
 * looked up); a reference id the books already listed is DUPLICATE (not looked up again).
 * With stores (`journal`, `outbox`, `batchStore`), the payments they hold that no record
 * names are added after the records, as MISSING_FROM_BOOKS (their records
 * `ReconcileStoreRecord`s). Then each is looked up through the client's public `getX`
 * method, a few at a time (within the client's lookup budget), unless the client's
 * journal says it went to another platform. See docs/reconcile.md.
 */
export async function reconcile<R extends ReconcileRecord>(
  momo: ClientSurface,
  records: Iterable<R> | AsyncIterable<R>,
  options: ReconcileFromStoreOptions,
): Promise<ReconcileResult<R | ReconcileStoreRecord>>;
export async function reconcile<R extends ReconcileRecord>(
  momo: ClientSurface,
  records: Iterable<R> | AsyncIterable<R>,
  options?: ReconcileOptions,
): Promise<ReconcileResult<R>>;
export async function reconcile<R extends ReconcileRecord>(
  momo: ClientSurface,
  records: Iterable<R> | AsyncIterable<R>,
  options: ReconcileOptions & ReconcileStores = {},
): Promise<ReconcileResult<R | ReconcileStoreRecord>> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ValidationError(
      [{ path: 'concurrency', message: 'must be a whole number, 1 or more' }],
      { operation: 'reconcile' },
    );
  }
  const fromStores = checkStores(options);
  const { signal } = options;
  signal?.throwIfAborted();
  const { pending, ids } = await readAll(records);
  signal?.throwIfAborted();
  const tasks: Task<R>[] = fromStores
    ? [...pending, ...(await missingFromBooks(options, ids, signal, momo.tenant))]
    : pending;
  signal?.throwIfAborted();

  const items: ReconcileItem<R | ReconcileStoreRecord>[] = new Array(tasks.length);
  const summary = emptySummary(tasks.length);
  const here = momo.toJSON();
  let next = 0;
  let checked = 0;
  const nextIndex = () => (next < tasks.length && !signal?.aborted ? next++ : undefined);
  await forEachLimited(concurrency, nextIndex, async (index) => {
    const task = tasks[index] as Task<R>;
    const item =
      'books' in task
        ? await check(momo, here, task, signal)
        : await missing(momo, here, task, signal);
    if (signal?.aborted) return;
    items[index] = item;
    summary[item.verdict]++;
    checked++;
    try {
      options.onProgress?.({ ...summary, checked });
    } catch {
      // A failing progress report must not stop the reconciliation.
    }
  });
  signal?.throwIfAborted();
  return { items, summary };
}

/**
 * Reads every record, checking each; the first problems found refuse the run. A record
 * whose reference id (in any case) an earlier one has is marked with that one's index.
 */
async function readAll<R extends ReconcileRecord>(
  records: Iterable<R> | AsyncIterable<R>,
): Promise<{ pending: Pending<R>[]; ids: Set<string> }> {
  if (records === null || typeof records !== 'object' || !isIterable(records)) {
    throw new ValidationError(
      [{ path: 'records', message: 'must be an iterable or an async iterable of records' }],
      { operation: 'reconcile' },
    );
  }
  const checks = new RecordChecks();
  const pending: Pending<R>[] = [];
  const first = new Map<string, number>();
  let index = 0;
  for await (const record of records) {
    const books = checks.check(record, index++);
    // Once one record is bad, the others are only checked (nothing will be looked up).
    if (!books || checks.issues.length > 0) continue;
    const id = idKey(record.referenceId);
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, pending.length);
    pending.push(
      earlier === undefined ? { record, books } : { record, books, duplicateOf: earlier },
    );
  }
  const error = checks.error();
  if (error) throw error;
  return { pending, ids: new Set(first.keys()) };
}

function isIterable(value: object): boolean {
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

async function check<R extends ReconcileRecord>(
  momo: ClientSurface,
  here: Platform,
  { record, books, duplicateOf }: Pending<R>,
  signal: AbortSignal | undefined,
): Promise<ReconcileItem<R>> {
  if (duplicateOf !== undefined) {
    const reason = `the same referenceId as records[${duplicateOf}] (reconciled there): the books list this payment twice`;
    return { record, verdict: 'DUPLICATE', reason, duplicateOf };
  }
  try {
    const entry = await momo.journal.get(record.referenceId);
    if (entry && !samePlatform(entry, here)) {
      return { record, verdict: 'OTHER_PLATFORM', reason: elsewhere(entry), entry };
    }
    const lookup = lookupFor(record.operation);
    if (typeof lookup === 'string') throw new Error(`no lookup for ${record.operation}`); // checked before
    const found = await lookup(momo, record.referenceId, signal ? { signal } : {});
    return { record, found, ...verdictOf(books, found) };
  } catch (error) {
    if (isMissing(error)) return { record, verdict: 'NOT_FOUND' };
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { record, verdict: 'ERROR', reason, error };
  }
}

/**
 * A payment the books lack: MISSING_FROM_BOOKS, looked up (on the platform its journal
 * entry names) so that the provider's status shows; `reason` says where the SDK holds it
 * and what the provider said when there is no `found`.
 */
async function missing(
  momo: ClientSurface,
  here: Platform,
  { record, entry: listed }: StorePayment,
  signal: AbortSignal | undefined,
): Promise<ReconcileItem<ReconcileStoreRecord>> {
  const verdict = 'MISSING_FROM_BOOKS';
  const why = missingReason(record);
  try {
    const entry = listed ?? (await momo.journal.get(record.referenceId));
    const withEntry = entry ? { entry } : {};
    if (entry && !samePlatform(entry, here)) {
      return { record, verdict, reason: `${why}; ${elsewhere(entry)}`, ...withEntry };
    }
    const lookup = lookupFor(record.operation);
    if (typeof lookup === 'string') {
      return { record, verdict, reason: `${why}; not looked up: ${record.operation} ${lookup}` };
    }
    const found: ReconcileFound = await lookup(momo, record.referenceId, signal ? { signal } : {});
    return { record, found, verdict, reason: why, ...withEntry };
  } catch (error) {
    if (isMissing(error)) {
      return { record, verdict, reason: `${why}; the provider has no such transaction` };
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { record, verdict, reason: `${why}; the lookup failed: ${message}`, error };
  }
}

type Platform = { baseUrl: string; targetEnvironment: string };

function isMissing(error: unknown): boolean {
  return isNotFoundError(error) || (isApiError(error) && error.code === 'RESOURCE_NOT_FOUND');
}

function elsewhere(entry: JournalEntry): string {
  return `sent to ${entry.baseUrl} (${entry.targetEnvironment}): reconcile it with a client of that platform`;
}

function samePlatform(
  entry: Pick<JournalEntry, 'baseUrl' | 'targetEnvironment'>,
  here: Platform,
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
    'DUPLICATE',
    'MISSING_FROM_BOOKS',
  ];
  return Object.assign({ total }, ...verdicts.map((verdict) => ({ [verdict]: 0 })));
}

/** Reference ids compare in lower case (UUIDs), as the journal keys them. */
function idKey(referenceId: string): string {
  return referenceId.toLowerCase();
}
