// What the SDK's own stores hold, listed for `reconcile(momo, records, { journal, outbox,
// batchStore })`: the payments the books lack become MISSING_FROM_BOOKS items.

import type { JournalEntry } from '../contracts/journal';
import { ValidationError, type ValidationIssue } from '../errors';
import type { ReconcileStoreRecord, ReconcileStores } from './types';

/** A payment a store holds that no record of the books names. */
export interface StorePayment {
  record: ReconcileStoreRecord;
  /** The journal's own entry, when the journal listed it (its platform is known). */
  entry?: JournalEntry;
}

/**
 * Checks the stores given before anything is read or looked up: each must be able to
 * list what it holds. A ValidationError names each one that cannot (and a bad `since`
 * or `batches`). Returns whether any store was given.
 */
export function checkStores(stores: ReconcileStores): boolean {
  const issues: ValidationIssue[] = [];
  const { journal, outbox, batchStore, batches, since } = stores;
  const lacks = (path: string, what: string) =>
    issues.push({ path, message: `cannot list what it holds: it has no ${what} method` });
  if (journal !== undefined && typeof journal?.entries !== 'function') {
    lacks('journal', 'entries()');
  }
  if (outbox !== undefined && typeof outbox?.payments !== 'function') {
    lacks('outbox', 'payments()');
  }
  if (batchStore !== undefined) {
    if (typeof batchStore?.open !== 'function') {
      issues.push({ path: 'batchStore', message: 'must be a batch store (open(id))' });
    } else if (batches === undefined && typeof batchStore.batches !== 'function') {
      lacks('batchStore', 'batches() (name its batches with `batches`)');
    }
  }
  if (
    batches !== undefined &&
    (!Array.isArray(batches) || batches.some((id) => typeof id !== 'string' || id === ''))
  ) {
    issues.push({ path: 'batches', message: 'must be a list of batch ids' });
  } else if (batches !== undefined && batchStore === undefined) {
    issues.push({ path: 'batches', message: 'names batches of a `batchStore`: give it too' });
  }
  if (since !== undefined && sinceMs(since) === undefined) {
    issues.push({ path: 'since', message: 'must be a Date or epoch milliseconds' });
  }
  if (issues.length > 0) throw new ValidationError(issues, { operation: 'reconcile' });
  return journal !== undefined || outbox !== undefined || batchStore !== undefined;
}

function sinceMs(since: Date | number): number | undefined {
  const ms = since instanceof Date ? since.getTime() : since;
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : undefined;
}

/**
 * Every payment the stores hold whose reference id is not in `books` (lower-cased ids),
 * each once (the first store to list it names its source: the batch store, the outbox,
 * then the journal, the most specific first), in listing order. Only `tenant`'s records
 * (the client's: `momo-partner-sdk/tenants`, the CLI's `--tenant`; none: those of no
 * tenant): another tenant's payments are neither listed nor looked up with this client's
 * credentials, in a store tenants share.
 */
export async function missingFromBooks(
  stores: ReconcileStores,
  books: ReadonlySet<string>,
  signal: AbortSignal | undefined,
  tenant: string | undefined,
): Promise<StorePayment[]> {
  const found = new Map<string, StorePayment>();
  const add = (payment: StorePayment) => {
    const key = idKey(payment.record.referenceId);
    if (!books.has(key) && !found.has(key)) found.set(key, payment);
  };
  const since = stores.since === undefined ? undefined : sinceMs(stores.since);
  const window = since === undefined ? {} : { since };
  const { batchStore, outbox, journal } = stores;
  if (batchStore) {
    const ids = stores.batches ?? (await collect(batchStore.batches?.() ?? []));
    for (const batchId of ids) {
      signal?.throwIfAborted();
      const handle = await batchStore.open(batchId);
      for await (const item of handle.records()) {
        // An engine job's REJECTED item was never sent: nothing the books could lack.
        if (item.outcome?.status === 'REJECTED' || item.tenant !== tenant) continue;
        const record: ReconcileStoreRecord = {
          referenceId: item.referenceId,
          operation: item.operation,
          source: 'batch',
          batchId,
          key: item.key,
        };
        if (item.outcome) record.stored = item.outcome.status;
        add({ record });
      }
    }
  }
  if (outbox) {
    for await (const payment of outbox.payments(window)) {
      signal?.throwIfAborted();
      if (payment.tenant !== tenant) continue;
      add({
        record: {
          referenceId: payment.referenceId,
          operation: payment.operation,
          source: 'outbox',
          key: payment.key,
          stored: payment.status,
        },
      });
    }
  }
  if (journal?.entries) {
    for await (const entry of journal.entries(window)) {
      signal?.throwIfAborted();
      if (since !== undefined && entry.createdAt < since) continue; // a store that ignored it
      if (entry.tenant !== tenant) continue;
      const record: ReconcileStoreRecord = {
        referenceId: entry.referenceId,
        operation: entry.operation,
        source: 'journal',
      };
      if (entry.tag !== undefined) record.tag = entry.tag;
      record.stored = entry.outcome ?? 'PENDING';
      add({ record, entry });
    }
  }
  return [...found.values()];
}

async function collect<T>(items: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Why a payment the books lack was reported, with what the store recorded. */
export function missingReason(record: ReconcileStoreRecord): string {
  const where =
    record.source === 'batch'
      ? `batch ${record.batchId}, key ${record.key}`
      : record.source === 'outbox'
        ? `the outbox, key ${record.key}`
        : `the journal${record.tag ? `, tag ${record.tag}` : ''}`;
  const stored = record.stored ? `, recorded ${record.stored}` : '';
  return `sent by the SDK (${where}${stored}), not in the books`;
}

/** Reference ids compare in lower case (UUIDs), as the journal keys them. */
function idKey(referenceId: string): string {
  return referenceId.toLowerCase();
}
