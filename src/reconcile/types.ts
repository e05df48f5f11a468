import type { JournalEntry } from '../contracts/journal';
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
 */
export type ReconcileVerdict =
  | 'MATCH'
  | 'SETTLED'
  | 'MISMATCH'
  | 'STILL_PENDING'
  | 'NOT_FOUND'
  | 'OTHER_PLATFORM'
  | 'ERROR';

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
  /** Why, for `MISMATCH`, `STILL_PENDING` (books final), `OTHER_PLATFORM` and `ERROR`. */
  reason?: string;
  /** The lookup's error, for `ERROR`. */
  error?: unknown;
  /** The journal's entry, for `OTHER_PLATFORM`. */
  entry?: JournalEntry;
}

/** How many records got each verdict, and how many there were. */
export type ReconcileSummary = { total: number } & Record<ReconcileVerdict, number>;

/** Progress so far: `checked` of `total`, by verdict. */
export type ReconcileProgress = ReconcileSummary & { checked: number };

/** What `momo.reconcile` resolves to: one verdict per record in input order, and counts. */
export interface ReconcileResult<R extends ReconcileRecord = ReconcileRecord> {
  items: ReconcileItem<R>[];
  summary: ReconcileSummary;
}

/** Options of `momo.reconcile(records, options)` (DESIGN 8.2; docs/reconcile.md). */
export interface ReconcileOptions {
  /** Lookups in flight at once. Default 8; the client's `lookupRate` paces them. */
  concurrency?: number;
  /** Called after each record is checked (a throw is ignored: the run goes on). */
  onProgress?(progress: ReconcileProgress): void;
  /** Stops the run: no new lookup starts, those in flight are aborted, and the promise rejects. */
  signal?: AbortSignal;
}
