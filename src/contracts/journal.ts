import type { ProductName } from './product';

/** What is recorded before a creating call leaves: no secrets, no personal data. */
export interface JournalRecord {
  product: ProductName;
  /** The creating operation, e.g. `disbursement.deposit`. */
  operation: string;
  /** X-Reference-Id (or X-CorrelationID) the call is sent with. */
  referenceId: string;
  /** Epoch milliseconds, taken just before sending. */
  createdAt: number;
  /**
   * The platform it was sent to: the client's `baseUrl` and `targetEnvironment`. Only a
   * client of that platform ever looks it up or resumes it (a status exists only there).
   */
  baseUrl: string;
  targetEnvironment: string;
  /**
   * Whose payment it is: the call's `tag` option (a batch's `<batch id>/<item key>`), else
   * the body's `externalId`; absent when neither was given. Maps the entry back to the
   * partner's row after a restart.
   */
  tag?: string;
  /**
   * The tenant whose credentials sent it (`momo-partner-sdk/tenants`); absent for a
   * client of its own. A tenant resumes and confirms only its own entries.
   */
  tenant?: string;
}

/**
 * How an operation ended, as far as the SDK saw: a final status (a refusal of this
 * payment, a 4xx or a 500 business refusal, is `FAILED` with its code in `reason`), or
 * `NOT_FOUND` (the service has no such transaction: a resume's lookup found none, or the
 * call sent nothing). `REJECTED` (nothing created: sending it again is safe) is no longer
 * written by the SDK: a refusal of the credentials leaves the entry pending, since every
 * driver sends the same reference id again once they work (docs/architecture.md).
 */
export type JournalOutcome = 'SUCCESSFUL' | 'FAILED' | 'REJECTED' | 'NOT_FOUND';

export interface JournalEntry extends JournalRecord {
  /** Set once the outcome is known. */
  outcome?: JournalOutcome;
  /** Epoch milliseconds when the outcome became known. */
  finishedAt?: number;
  /** The code of a refusal settled FAILED (e.g. `INVALID_CURRENCY`), when the journal keeps it. */
  reason?: string;
}

/**
 * Operations in flight. The SDK records an operation before it is sent and marks it
 * when its outcome is known; `pending()` is what was sent and never seen final. Reference
 * ids match whatever their letter case. `checkJournal` (momo-partner-sdk/testing) checks
 * a journal against this contract.
 */
export interface Journal {
  /** Records a pending operation. An id already pending keeps its first record. */
  record(entry: JournalRecord): Promise<void>;
  /**
   * Marks an operation finished (no effect on an id the journal does not hold); a finished
   * id keeps its first outcome. A finished id recorded again is pending again, the newest.
   * `reason`: the refusal's code of a FAILED one, when the SDK saw it (a journal may ignore
   * it).
   */
  finish(
    referenceId: string,
    outcome: JournalOutcome,
    finishedAt: number,
    reason?: string,
  ): Promise<void>;
  /** One entry, pending or recently finished. */
  get(referenceId: string): Promise<JournalEntry | undefined>;
  /**
   * Every pending entry, oldest first by `createdAt`; entries of the same millisecond in
   * the order they were recorded (never by reference id).
   */
  pending(): Promise<JournalEntry[]>;
  /**
   * Every entry it holds, pending and finished (within its retention), oldest first by
   * `createdAt` where it can; with `since`, only those created at or after it (epoch ms).
   * Optional (a journal of your own type-checks without it): `reconcile` (momo-partner-sdk/reconcile) reads it
   * to find the payments the books lack; every journal of the SDK has it.
   */
  entries?(options?: { since?: number }): AsyncIterable<JournalEntry>;
}
