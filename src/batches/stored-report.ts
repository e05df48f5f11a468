import type { BatchRecord, BatchStore } from '../contracts/batch-store';
import { ValidationError } from '../errors';
import { buildReport } from './summary';
import type { BatchReport, BatchReportItem } from './types';

/** Options of `new Batches(momo).report(batch, options)`. */
export interface BatchReportOptions {
  /** The store the batch's runs (or engine jobs) recorded it in. */
  store: BatchStore;
}

/**
 * A batch's report read from its store alone (docs/batches.md): nothing sent, nothing looked
 * up. A tenant's client (`momo.tenant`) reads only its own items. The store holds only what was recorded (items with an intent), in the order first
 * recorded, and no body: so no REJECTED or SKIPPED items, and no amounts (docs/assumptions.md).
 * An item not final is UNRESOLVED, as a run that could not finish it reports it.
 */
export async function storedReport(
  batch: string,
  options: BatchReportOptions,
  tenant: string | undefined,
): Promise<BatchReport> {
  const store = options?.store;
  if (!store || typeof store.open !== 'function') {
    throw new ValidationError(
      [{ path: 'options.store', message: 'must be a batch store' }],
      {},
      NOTHING_READ,
    );
  }
  if (store.batches && !(await listed(store.batches(), batch))) throw unknownBatch(batch);
  const handle = await store.open(batch);
  const items: BatchReportItem[] = [];
  // Not closed, as `run` leaves it: a store hands one process the same handle, which a
  // run of the batch going on in this process may be using.
  // A tenant's client reads its own items only of a store tenants share; a client of no
  // tenant (the operator's) reads every item, each row naming its tenant.
  for await (const record of handle.records()) {
    if (tenant === undefined || record.tenant === tenant) items.push(reportItemOf(record));
  }
  // Opened, but nothing recorded (or its state expired): nothing to report of it.
  if (items.length === 0) throw unknownBatch(batch);
  return buildReport(items, () => undefined);
}

const NOTHING_READ = 'Nothing was sent or looked up.';

function unknownBatch(batch: string): ValidationError {
  const message = `"${batch}" is not a batch with recorded items in this store`;
  return new ValidationError([{ path: 'batch', message }], {}, NOTHING_READ);
}

/** Whether the store lists the batch: checked before `open`, which may create it. */
async function listed(ids: AsyncIterable<string>, batch: string): Promise<boolean> {
  for await (const id of ids) if (id === batch) return true;
  return false;
}

/** A record's line of the report, as the run would give it (src/batches/batches.ts). */
function reportItemOf(record: BatchRecord): BatchReportItem {
  const item = statusOf(record);
  if (record.tenant !== undefined) item.tenant = record.tenant;
  return item;
}

function statusOf(record: BatchRecord): BatchReportItem {
  const { key, operation, referenceId, outcome } = record;
  if (outcome === undefined) {
    return { key, operation, referenceId, status: 'UNRESOLVED', reason: NOT_KNOWN_SENT };
  }
  if (outcome.status === 'SENT') {
    return { key, operation, referenceId, status: 'UNRESOLVED', reason: NOT_FINAL };
  }
  if (outcome.delivered === false) {
    const reason = `${outcome.status}, its onItemSettled not run yet (the next run looks it up and runs it)`;
    return { key, operation, referenceId, status: 'UNRESOLVED', reason };
  }
  const item: BatchReportItem = { key, operation, referenceId, status: outcome.status };
  if (outcome.reason !== undefined) item.reason = outcome.reason;
  if (outcome.financialTransactionId !== undefined) {
    item.financialTransactionId = outcome.financialTransactionId;
  }
  return item;
}

const NOT_KNOWN_SENT =
  'recorded, not known to be sent (the next run looks it up before sending it)';
const NOT_FINAL = 'sent, not final yet (the next run looks it up)';
