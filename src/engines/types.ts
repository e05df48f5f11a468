import type { BatchStore } from '../contracts/batch-store';

/**
 * One job's data as an engine stores it: the item, never the secret (the workers hold
 * it). `kind: 'pay'` carries the body to send; `kind: 'reject'` an item found bad when it
 * was added (only its REJECTED outcome is recorded, nothing is sent). `lookup: true`
 * marks a job handed back because its item was not final by its deadline: it is run the
 * same way (the store shows the item sent, so it is only looked up), the flag is for
 * the engine's dashboard. Plain JSON, versioned (`v`), so a queue outlives a deploy.
 */
export interface PaymentJobData {
  v: 1;
  kind: 'pay' | 'reject';
  /** The batch id: with `key`, the payment's name for good. */
  batch: string;
  key: string;
  operation: string;
  /** `pay`: the creating call's body, as given. */
  body?: unknown;
  /** `pay`: the item's X-Callback-Url, when it has its own. */
  callbackUrl?: string;
  /** `reject`: why the item is REJECTED (field and why). */
  reason?: string;
  /** A job handed back for a later lookup (see above). */
  lookup?: true;
}

/** One job to add: its data and an engine job id derived from (batch, key). */
export interface PreparedJob {
  /**
   * `momo-<32 hex>`: SHA-256 of (batch, key, what the job carries). A de-duplication hint
   * for the engine while the job exists; what makes a second run safe is the batch store.
   */
  jobId: string;
  data: PaymentJobData;
}

/** What `prepareItems` found: the jobs to add, in input order, and every item refused. */
export interface PreparedItems {
  /** One per item with a usable key: `pay` for a valid item, `reject` for a bad one. */
  jobs: PreparedJob[];
  /**
   * Every item refused as it was added, with why: bad items (their `reject` job records
   * it in the store) and items no job can carry (no usable key, or a key given twice in
   * one call: the first occurrence is the item).
   */
  rejected: { index: number; key: string; reason: string }[];
}

/** What the workers of an engine share: the secret the ids are derived with, and the store. */
export interface PaymentJobContext {
  /** At least 16 characters: the same on every worker (it names every payment). */
  secret: string;
  /** The batch store (Redis or PostgreSQL across processes) the outcomes are recorded in. */
  store: BatchStore;
}

/**
 * How a job ended. Final: `SUCCESSFUL`, `FAILED` (the provider's reason code) or
 * `REJECTED` (nothing sent: bad, or a changed item under a used key), recorded in the
 * store (a changed item's rejection is only here: the key's record stays its first
 * item's). `PENDING`: not final by the deadline (or held by another worker past it):
 * hand the job back as a lookup job (`lookupJob`), never a new send.
 */
export type PaymentJobResult =
  | {
      status: 'SUCCESSFUL' | 'FAILED' | 'REJECTED';
      batch: string;
      key: string;
      referenceId?: string;
      reason?: string;
      financialTransactionId?: string;
      /** The tenant the item's record carries (the worker's client's, `momo-partner-sdk/tenants`). */
      tenant?: string;
    }
  | {
      status: 'PENDING';
      batch: string;
      key: string;
      referenceId?: string;
      reason: string;
      tenant?: string;
    };
