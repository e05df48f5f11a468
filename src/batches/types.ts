import type { ListOperationName } from '../catalogue/operations';
import type { BatchStore } from '../contracts/batch-store';

/**
 * An operation a batch (and the outbox, and `payouts`) can run: a creating call with a
 * status lookup, not sent with a payer's consent token. Read from the operation tables'
 * types through the kernel's catalogue, never written out.
 */
export type BatchOperation = ListOperationName;

/** One row of a batch. */
export interface BatchItem {
  /** Unique in the batch, for good: `(batch id, key)` names one payment. */
  key: string;
  /** The creating call's body (checked by that call's own rules before anything is sent). */
  body: unknown;
  /** The creating operation; default the run's `operation`. */
  operation?: BatchOperation | undefined;
  /** X-Callback-Url for this item; default the client's `callbackUrl`. */
  callbackUrl?: string | undefined;
}

/** How an item ended: see docs/batches.md. */
export type BatchItemStatus = 'SUCCESSFUL' | 'FAILED' | 'REJECTED' | 'SKIPPED' | 'UNRESOLVED';

/** Counts as the run goes (`sent` counts items the provider has, from earlier runs too). */
export interface BatchProgress {
  total: number;
  rejected: number;
  skipped: number;
  sent: number;
  successful: number;
  failed: number;
  /** Sent and not final yet. */
  pending: number;
}

/** What `onItemSettled` is given: an item whose final outcome is being recorded. */
export interface SettledBatchItem {
  /** The batch's id (`options.id`). */
  batchId: string;
  /** The item's key: with `batchId`, your row. */
  key: string;
  operation: string;
  /** The X-Reference-Id it was sent under. */
  referenceId: string;
  status: 'SUCCESSFUL' | 'FAILED';
  /** FAILED: the provider's reason code. */
  reason?: string;
  /** SUCCESSFUL: the provider's transaction id, when it gave one. */
  financialTransactionId?: string;
  /** The body's amount and currency (absent for an operation without them, a pre-approval). */
  amount?: string;
  currency?: string;
}

/** Options of `new Batches(momo).run(items, options)` (docs/batches.md). */
export interface BatchRunOptions<Tx = unknown> {
  /** The batch's id: running it again continues it. */
  id: string;
  /** Where the batch's state lives (required: it is what makes a re-run safe). */
  store: BatchStore;
  /** Default operation of items without their own. Default `disbursement.transfer`. */
  operation?: BatchOperation | undefined;
  /**
   * Derives each item's reference id from (batch id, key) with this secret (at least 16
   * characters; keep it like a key): a re-run whose store was lost still sends every item
   * under the id it had. Without it, ids are random and live only in the store.
   */
  secret?: string | undefined;
  /** `isAccountHolderActive` on the item's payee (payer, for collections) first: inactive → SKIPPED. */
  checkAccountHolder?: boolean | undefined;
  /** Validate (and check account holders), send nothing. */
  dryRun?: boolean | undefined;
  /** Creating calls in flight at once (waits hold no slot). Default 8. */
  concurrency?: number | undefined;
  /** Creating calls started per second, at most (a sliding second). Default unlimited. */
  createRate?: number | undefined;
  /** Deadline of each item's wait; past it the item is UNRESOLVED. Default the client's polling timeout. */
  waitTimeoutMs?: number | undefined;
  /** Called on every change of the counts. A throw is ignored. */
  onProgress?: ((progress: BatchProgress) => void) | undefined;
  /**
   * Runs for each item whose final outcome (SUCCESSFUL or FAILED) this run records: with a
   * store that has transactions (PostgreSQL) in the one that records it, `tx` its client
   * (your update and the outcome commit together); elsewhere after it is recorded, `tx`
   * undefined. A throw keeps the outcome unrecorded (the item is UNRESOLVED, naming the
   * throw) and the next run looks it up and runs this again: at least once per item.
   */
  onItemSettled?(item: SettledBatchItem, tx: Tx | undefined): Promise<void> | void;
  /** Stops the run: nothing more is sent, the run rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** One item of the report, in input order. */
export interface BatchReportItem {
  key: string;
  operation: string;
  /** The X-Reference-Id it was (or would be) sent under; absent when none was given to it. */
  referenceId?: string;
  status: BatchItemStatus;
  /** FAILED: the provider's reason code. REJECTED: the field and why. UNRESOLVED: why. */
  reason?: string;
  financialTransactionId?: string;
  /** The tenant whose client recorded the item (`momo-partner-sdk/tenants`), when one did. */
  tenant?: string;
}

/** The counts of a batch's report, its amounts per currency and its failures by reason code. */
export interface BatchSummary {
  total: number;
  successful: number;
  failed: number;
  rejected: number;
  skipped: number;
  unresolved: number;
  /** Sums per currency, as decimal strings (exact). */
  amounts: Record<string, { successful: string; failed: string }>;
  /** FAILED items by the provider's reason code. */
  failures: Record<string, number>;
}

/** What `new Batches(momo).run` resolves to: one entry per item in input order, and a summary. */
export interface BatchReport {
  summary: BatchSummary;
  items: BatchReportItem[];
}
