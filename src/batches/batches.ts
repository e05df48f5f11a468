import { checkItem } from '../catalogue/check';
import type { ClientSurface } from '../client-surface';
import type { BatchHandle } from '../contracts/batch-store';
import { ConcurrencyLimit } from '../payments/concurrency-limit';
import { fingerprint, ownerId } from '../payments/ids';
import { pacedCalls } from '../payments/pacing';
import { checkRunOptions } from './check';
import { batchClaims } from './claims';
import { FirstLookupPlanner } from './first-lookup';
import { adoptRecord, ItemState, type RunContext } from './item';
import { refusedRecord } from './refused-record';
import { type BatchReportOptions, storedReport } from './stored-report';
import { buildReport, moneyOf, ProgressCounts } from './summary';
import { runOrTakeOver } from './takeover';
import type { BatchItem, BatchReport, BatchReportItem, BatchRunOptions } from './types';

type Items = Iterable<BatchItem> | AsyncIterable<BatchItem>;
/** What the send pass needs of an item kept from a one-shot input. */
type Kept = { body: unknown; callbackUrl?: unknown };

const DEFAULT_OPERATION = 'disbursement.transfer';
const DEFAULT_CONCURRENCY = 8;

/**
 * Batches: pay a list exactly once (docs/batches.md), on the client's public methods only.
 * `new Batches(momo).run(items, { id, store })`.
 */
export class Batches {
  readonly #momo: ClientSurface;

  constructor(momo: ClientSurface) {
    this.#momo = momo;
  }

  /**
   * Runs (or continues) batch `options.id`: every item checked first (nothing is sent
   * while one is unread), then each sent once under its recorded reference id and awaited
   * to its final status. Resolves with the report in input order.
   */
  async run<Tx = unknown>(items: Items, options: BatchRunOptions<Tx>): Promise<BatchReport> {
    checkRunOptions(items, options);
    const signal = options.signal;
    signal?.throwIfAborted();
    const handle = await options.store.open(options.id);
    const progress = new ProgressCounts(options.onProgress);
    const oneShot = !reiterable(items);
    const { slots, kept } = await checkAll(this.#momo, items, options, handle, oneShot);
    progress.change((c) => {
      c.total = slots.length;
      for (const slot of slots) {
        if (slot.status === 'REJECTED') c.rejected += 1;
        if (slot.sent || slot.status === 'SUCCESSFUL' || slot.status === 'FAILED') c.sent += 1;
        if (slot.status === 'SUCCESSFUL') c.successful += 1;
        if (slot.status === 'FAILED') c.failed += 1;
      }
    });
    const owner = ownerId('batch');
    const run: RunContext = {
      momo: this.#momo,
      options,
      handle,
      paced: pacedCalls(options.createRate),
      progress,
      firstLookup: new FirstLookupPlanner(),
      owner,
      claims: batchClaims(handle, owner),
    };
    await sendAll(run, slots, kept ?? (items as Items));
    return buildReport(slots.map(reportItem), (index) => moneyOfSlot(slots[index]));
  }

  /**
   * Batch `batch`'s report read from `options.store` alone (./stored-report.ts): sends
   * and looks up nothing. Rejects with a ValidationError naming the batch when the store
   * holds nothing of it.
   */
  report(batch: string, options: BatchReportOptions): Promise<BatchReport> {
    return storedReport(batch, options, this.#momo.tenant);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'Batches';
  }
}

/** An item's line of the report, built without intermediate objects (100,000 of them). */
function reportItem(slot: ItemState): BatchReportItem {
  const { key, operation, referenceId, reason, financialTransactionId, tenant } = slot;
  const status = slot.status ?? 'UNRESOLVED';
  // A paid item's whole shape in one literal: properties added later live outside it.
  if (referenceId !== undefined && reason === undefined && financialTransactionId !== undefined) {
    return tenant === undefined
      ? { key, operation, referenceId, status, financialTransactionId }
      : { key, operation, referenceId, status, financialTransactionId, tenant };
  }
  const item: BatchReportItem =
    referenceId === undefined
      ? { key, operation, status }
      : { key, operation, referenceId, status };
  if (reason !== undefined) item.reason = reason;
  if (financialTransactionId !== undefined) item.financialTransactionId = financialTransactionId;
  if (tenant !== undefined) item.tenant = tenant;
  return item;
}

function moneyOfSlot(slot: ItemState | undefined) {
  const { amount, currency } = slot ?? {};
  return amount === undefined || currency === undefined ? undefined : { amount, currency };
}

/**
 * The first pass: every item checked, duplicate keys (the first occurrence is the item,
 * the others REJECTED) and keys recorded for another body found, before anything is sent.
 * Keeps per item only its slot (key, operation, fingerprint, recorded state) and money,
 * and the bodies only for a one-shot input, which cannot be read twice.
 */
async function checkAll(
  momo: ClientSurface,
  items: Items,
  options: BatchRunOptions,
  handle: BatchHandle,
  oneShot: boolean,
) {
  const slots: ItemState[] = [];
  const kept: (Kept | undefined)[] | undefined = oneShot ? [] : undefined;
  const first = new Map<string, number>();
  const defaultOperation = options.operation ?? DEFAULT_OPERATION;
  for await (const item of items) {
    options.signal?.throwIfAborted();
    const check = checkItem(item, defaultOperation);
    const slot = new ItemState(check.key, check.operation);
    slots.push(slot);
    const money = check.ok ? moneyOf(item.body) : undefined;
    if (money) {
      slot.amount = money.amount;
      slot.currency = money.currency;
    }
    kept?.push(check.ok ? { body: item.body, callbackUrl: item.callbackUrl } : undefined);
    if (!check.ok) {
      slot.status = 'REJECTED';
      slot.reason = check.reason;
      continue;
    }
    const earlier = first.get(check.key);
    if (earlier !== undefined) {
      slot.status = 'REJECTED';
      slot.reason = `key: "${check.key}" is the key of item ${earlier + 1} already (keys are unique)`;
      continue;
    }
    first.set(check.key, slots.length - 1);
    slot.spec = check.spec;
    slot.fingerprint = await fingerprint(check.operation, item.body);
    const record = await handle.get(check.key);
    if (!record) continue;
    const refused = refusedRecord({ momo }, slot, record);
    if (refused) {
      slot.status = 'REJECTED';
      slot.reason = refused;
      continue;
    }
    adoptRecord(slot, record);
  }
  return { slots, kept };
}

/**
 * The second pass: the items read again (or the bodies kept), each not yet ended run by
 * `runOrTakeOver` (another process's items awaited), at most `concurrency` creating calls
 * at once; waits run on without a slot.
 */
async function sendAll(
  run: RunContext,
  slots: ItemState[],
  items: Iterable<unknown> | AsyncIterable<unknown>,
) {
  const { signal } = run.options;
  const sendLimit = new ConcurrencyLimit(run.options.concurrency ?? DEFAULT_CONCURRENCY);
  const running = new Set<Promise<void>>();
  let stop: { error: unknown } | undefined;
  let index = 0;
  for await (const item of items) {
    const slot = slots[index++];
    const read = item as Kept & { key?: unknown };
    if (!slot || (!Array.isArray(items) && read.key !== undefined && read.key !== slot.key)) {
      // Stop sending; what is in flight ends first.
      stop ??= {
        error: changed(run, slot ? `reads another key at item ${index}` : 'has more items'),
      };
      break;
    }
    if (slot.status !== undefined) continue;
    await sendLimit.acquire();
    if (stop || signal?.aborted) {
      sendLimit.release();
      break;
    }
    let freed = false;
    const free = () => {
      if (!freed) sendLimit.release();
      freed = true;
    };
    const task: Promise<void> = runOrTakeOver(
      run,
      slot,
      read,
      free,
      sendLimit,
      () => stop !== undefined,
    )
      .catch((error: unknown) => {
        stop ??= { error };
      })
      .finally(() => running.delete(task));
    running.add(task);
  }
  await Promise.all(running);
  signal?.throwIfAborted();
  if (stop) throw stop.error;
  if (index < slots.length) throw changed(run, 'has fewer items');
}

function changed(run: RunContext, what: string): Error {
  return new Error(
    `batch ${run.handle.id}: the items changed between the check and the send: the input ${what}`,
  );
}

/**
 * Whether `items` reads the same again: an array or a collection, not a generator or a
 * stream (whose iterator is itself, or which are consumed by reading).
 */
function reiterable(items: Items): boolean {
  if (Array.isArray(items)) return true;
  const source = items as Partial<Iterable<unknown> & AsyncIterable<unknown>> &
    Record<string, unknown>;
  if (typeof source.pipe === 'function' || typeof source.getReader === 'function') return false;
  const open = source[Symbol.asyncIterator] ?? source[Symbol.iterator];
  const iterator = (open as () => Iterator<unknown> | AsyncIterator<unknown>).call(items);
  if ((iterator as unknown) === items) return false;
  void Promise.resolve(iterator.return?.()).catch(() => {});
  return true;
}
