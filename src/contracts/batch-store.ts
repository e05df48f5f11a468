/**
 * The batch store contract: where a batch's state lives, so that `(batch id, item key)`
 * names one payment for good across crashes, re-runs and processes. Types only: a store
 * is anything with these methods (memory, a file, Redis, PostgreSQL). One conformance
 * suite (`checkBatchStore` in momo-partner-sdk/testing) runs against every store.
 */

/** What the runner records before an item's first send: the item and the id it is sent under. */
export interface BatchIntent {
  /** The item's key, unique in its batch. */
  key: string;
  /** The creating operation, e.g. `disbursement.transfer`. */
  operation: string;
  /** SHA-256 (hex) of the operation and the canonical JSON of the body: a changed body shows. */
  fingerprint: string;
  /** The X-Reference-Id the item is sent under, on every send, by every process. */
  referenceId: string;
  /**
   * The tenant whose client recorded it (`momo-partner-sdk/tenants`); absent for a client
   * of its own. A store keeps it as given; a run of another tenant never sends the item.
   */
  tenant?: string;
}

/**
 * What became of a recorded item, the last recorded wins: `SENT` (the provider accepted
 * it, by a 202 or by a 409 proving an earlier send: a re-run looks it up, sends nothing),
 * then its final status on the provider. A call refused before or on arrival (nothing
 * created) records nothing: a re-run tries it again under the same reference id.
 * `REJECTED` is written only by the job-engine adapters (momo-partner-sdk/bullmq,
 * /graphile-worker) for an item refused when it was added: never sent, final, its key used.
 */
export interface BatchOutcome {
  status: 'SENT' | 'SUCCESSFUL' | 'FAILED' | 'REJECTED';
  /** The provider's reason code of a FAILED transaction; why, for a REJECTED item. */
  reason?: string;
  /** The provider's id of a SUCCESSFUL transaction. */
  financialTransactionId?: string;
  /**
   * `false`: the final outcome is recorded but the run's `onItemSettled` has not run for it
   * yet (without a transaction the runner records it so, runs the hook, then records the
   * outcome again without it). Keep it as given: a re-run looks such an item up again and
   * runs the hook. Absent otherwise.
   */
  delivered?: false;
}

/** An item as the store holds it: its intent, and its outcome once there is one. */
export interface BatchRecord extends BatchIntent {
  outcome?: BatchOutcome;
}

/**
 * A claim on one item: the token every write for that item carries. A store refuses a
 * write whose token is no longer the item's current one (its lease ran out and another
 * owner claimed the item): "fencing", so a process that stalled past its lease cannot
 * overwrite what the new owner recorded.
 */
export type BatchClaimToken = string;

/** One batch's state in a store. */
export interface BatchHandle {
  /** The batch id it was opened with. */
  readonly id: string;
  /**
   * How long the runner claims an item for (it renews its claims at a third of this while
   * the items are in flight: all at once with `renew`). Default 15 s: a run awaits the items another process holds
   * and takes them over once their claim lapses, so a dead process's items go on within
   * a lease.
   */
  readonly leaseMs?: number;
  /** Every recorded item (intent with its outcome, if any), in the order first recorded. */
  records(): AsyncIterable<BatchRecord>;
  /** The record of one key, or undefined. */
  get(key: string): Promise<BatchRecord | undefined>;
  /**
   * Claims `key` for `owner` for `leaseMs`: a token, or undefined while another owner
   * holds an unexpired lease. The same owner claiming again renews and gets a new token
   * (the old one is then refused). A single-process store grants every claim it can; of
   * several claims of a free key at once, one is granted.
   */
  claim(key: string, owner: string, leaseMs: number): Promise<BatchClaimToken | undefined>;
  /** Gives the claim up (a no-op with a token that is no longer current). */
  release(key: string, token: BatchClaimToken): Promise<void>;
  /**
   * Optional: renews many claims in one round trip (the runner renews everything it holds
   * of the batch at once, at a third of `leaseMs`). Each claim whose token is still the
   * key's current one and whose lease has not run out gets `leaseMs` more from now, its
   * token unchanged; resolves to those tokens. The others are left as they are (not in
   * the set: the runner stops that item and writes nothing more for it). Without it the
   * runner renews each claim on its own, by `claim` again (a new token each time).
   */
  renew?(
    claims: readonly { key: string; token: BatchClaimToken }[],
    leaseMs: number,
  ): Promise<Set<BatchClaimToken>>;
  /**
   * Records an item's intent, durably, before its first send: resolves only once a crash
   * cannot lose it. The first intent recorded for a key wins: this resolves to the record
   * already there (which may differ: the caller compares fingerprints), or to the new one.
   * Undefined when `token` is not the key's current claim (nothing written).
   */
  recordIntent(intent: BatchIntent, token: BatchClaimToken): Promise<BatchRecord | undefined>;
  /**
   * Records the outcome of an item whose intent is recorded (the last outcome wins).
   * `false` when `token` is not the key's current claim (nothing written), or no intent.
   * `settled` (the run's `onItemSettled`): a store with transactions runs it in the one
   * that writes the outcome, with that transaction's handle (a throw rolls the write back
   * and is rethrown; fenced out: not run); a store without ignores it (the runner runs it
   * after the write).
   */
  recordOutcome(
    key: string,
    outcome: BatchOutcome,
    token: BatchClaimToken,
    settled?: (tx: unknown) => Promise<void>,
  ): Promise<boolean>;
  /** Releases what the handle holds (file descriptors, connections). */
  close(): Promise<void>;
}

/** Where batches' state lives: `memoryBatchStore()`, `fileBatchStore(dir)`, a Redis store. */
export interface BatchStore {
  /** Opens (creating if needed) the state of batch `id`. */
  open(id: string): Promise<BatchHandle>;
  /**
   * The id of every batch it holds (in no particular order). Optional (a store of your
   * own type-checks without it): `reconcile` (momo-partner-sdk/reconcile) reads it, then each batch's
   * `records()`, to find the payments the books lack; every store of the SDK has it.
   */
  batches?(): AsyncIterable<string>;
}
