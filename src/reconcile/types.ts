import type { BatchStore } from '../contracts/batch-store';
import type { Journal, JournalEntry } from '../contracts/journal';
import type { OutboxListing } from '../contracts/outbox-store';
import type { Reason } from '../schemas/tolerant';

/**
 * One payment as the partner's books hold it. Optional fields left out (or empty strings,
 * as a CSV cell gives them) are not compared.
 */
export interface ReconcileRecord {
  /** The X-Reference-Id the payment was sent with (a UUID v4). */
  referenceId: string;
  /** The creating operation, as the journal names it: `disbursement.transfer`, `collection.requestToPay`... */
  operation: string;
  /** What the books believe: `PENDING`, `SUCCESSFUL`, `FAILED` (or `CREATED`); any case. */
  status?: string | undefined;
  /** A decimal string: `100` and `100.00` are the same amount. */
  amount?: string | undefined;
  /** ISO 4217, any case. */
  currency?: string | undefined;
}

/**
 * - `MATCH`: both final, same status, amount and currency.
 * - `SETTLED`: the books say PENDING (or no status), the provider a final status: update the books.
 * - `MISMATCH`: the books and the provider disagree: both final with another status, or
 *   another amount or currency whatever the status (`reason` says which).
 * - `STILL_PENDING`: the provider has not finished it (`reason` says so when the books
 *   hold it final).
 * - `NOT_FOUND`: the provider has no such transaction (404).
 * - `OTHER_PLATFORM`: the client's journal says it was sent to another base URL or target
 *   environment: not looked up here (reconcile it with a client of that platform).
 * - `ERROR`: the lookup failed otherwise (`error`); the run went on.
 * - `DUPLICATE`: an earlier record has the same reference id (`duplicateOf`): that one
 *   is reconciled, this one is not looked up (the books count the payment twice).
 * - `MISSING_FROM_BOOKS`: a payment the SDK sent (its journal, outbox or batch store, as
 *   given) that no record names; looked up, `found` shows the provider's status.
 */
export type ReconcileVerdict =
  | 'MATCH'
  | 'SETTLED'
  | 'MISMATCH'
  | 'STILL_PENDING'
  | 'NOT_FOUND'
  | 'OTHER_PLATFORM'
  | 'ERROR'
  | 'DUPLICATE'
  | 'MISSING_FROM_BOOKS';

/** What the provider's status lookup answered: the lookup method's result, whole. */
export interface ReconcileFound {
  status: string;
  amount?: string | undefined;
  currency?: string | undefined;
  financialTransactionId?: string | undefined;
  reason?: Reason | undefined;
}

/** One record's outcome, in input order. */
export interface ReconcileItem<R extends ReconcileRecord = ReconcileRecord> {
  /** The record as given. */
  record: R;
  /** The provider's answer, when it was looked up and found. */
  found?: ReconcileFound;
  verdict: ReconcileVerdict;
  /**
   * Why, for `MISMATCH`, `STILL_PENDING` (books final), `OTHER_PLATFORM`, `ERROR`,
   * `DUPLICATE` and `MISSING_FROM_BOOKS`; and on any verdict when an amount or currency
   * of the books was not compared because the provider's answer has none.
   */
  reason?: string;
  /** The lookup's error, for `ERROR`. */
  error?: unknown;
  /** The journal's entry, for `OTHER_PLATFORM` (and a `MISSING_FROM_BOOKS` found in the journal). */
  entry?: JournalEntry;
  /** For `DUPLICATE`: the input index of the first record with this reference id. */
  duplicateOf?: number;
}

/**
 * A payment the SDK holds that the books lack (`MISSING_FROM_BOOKS`): its reference id and
 * operation, and where it was found. `status` is left out: it is the books' view, and
 * the books have none; `stored` is what the SDK last recorded of it.
 */
export interface ReconcileStoreRecord extends ReconcileRecord {
  /** Which store listed it first: the journal, the outbox or a batch store. */
  source: 'journal' | 'outbox' | 'batch';
  /** The batch's id (a batch store's item). */
  batchId?: string;
  /** The item's key in its batch, or the outbox payment's key. */
  key?: string;
  /** The journal entry's tag (a batch's `<batch id>/<key>`, or the body's externalId). */
  tag?: string;
  /** What the store recorded last: `SENT`, `QUEUED`, `SUCCESSFUL`, `FAILED`, a journal outcome... */
  stored?: string;
}

/** How many records got each verdict, and how many there were. */
export type ReconcileSummary = { total: number } & Record<ReconcileVerdict, number>;

/** Progress so far: `checked` of `total`, by verdict. */
export type ReconcileProgress = ReconcileSummary & { checked: number };

/** What `reconcile(momo, records)` resolves to: one verdict per record in input order, and counts. */
export interface ReconcileResult<R extends ReconcileRecord = ReconcileRecord> {
  items: ReconcileItem<R>[];
  summary: ReconcileSummary;
}

/** Options of `reconcile(momo, records, options)` (docs/reconcile.md). */
export interface ReconcileOptions {
  /** Lookups in flight at once. Default 8; the client's `lookupRate` paces them. */
  concurrency?: number;
  /** Called after each record is checked (a throw is ignored: the run goes on). */
  onProgress?(progress: ReconcileProgress): void;
  /** Stops the run: no new lookup starts, those in flight are aborted, and the promise rejects. */
  signal?: AbortSignal;
}

/**
 * Where `reconcile` looks for the payments the SDK sent that the books lack
 * (`MISSING_FROM_BOOKS`), docs/reconcile.md: any of a journal, an outbox and a batch store. Each
 * must be able to list what it holds (`journal.entries()`, `outbox.payments()`,
 * `batchStore.batches()`: optional methods of the contracts, which every store of the SDK
 * has); one that cannot is a ValidationError naming it, nothing looked up.
 */
export interface ReconcileStores {
  /** Every entry it holds (pending, and finished ones within its retention). */
  journal?: Journal | undefined;
  /** Every payment it holds: `db.outbox` of `momo-partner-sdk/postgres`. */
  outbox?: OutboxListing | undefined;
  /** Every item of every batch it holds, or of `batches` only. */
  batchStore?: BatchStore | undefined;
  /** Only these batches of `batchStore` (a batch store records no time: name the day's batches). */
  batches?: readonly string[] | undefined;
  /**
   * Only journal entries created and outbox payments enqueued at or after this time
   * (a Date or epoch milliseconds). Batch items have no time: use `batches`.
   */
  since?: Date | number | undefined;
}

/** `reconcile(momo, records, options)` with at least one store to find what the books lack. */
export type ReconcileFromStoreOptions = ReconcileOptions &
  ReconcileStores &
  ({ journal: Journal } | { outbox: OutboxListing } | { batchStore: BatchStore });
