/**
 * The outbox store contract: where a transactional outbox keeps its payment intents, so
 * that a relay on any number of instances sends each committed intent exactly once under
 * its stored reference id, waits it to its final status and delivers that outcome once.
 * Types only: `momo-partner-sdk/postgres` (`db.outbox.store`) is one; `startOutboxRelay`
 * runs on any store with these methods; `checkOutboxStore` (momo-partner-sdk/testing)
 * checks one against this contract.
 */

/**
 * Where an outbox payment stands: queued, accepted by the provider, or final (paid,
 * failed or refused, or cancelled before it was ever sent).
 */
export type OutboxStatus = 'QUEUED' | 'SENT' | 'SUCCESSFUL' | 'FAILED' | 'CANCELLED';

/**
 * The last failure that sent a payment back to wait: its class name and code only (the
 * provider's code, a network code), never its message or a body, so never a secret.
 */
export interface OutboxLastError {
  /** e.g. `ServerError`, `ConnectionError`, `RateLimitError`, `WaitTimeoutError`. */
  name: string;
  /** e.g. `INTERNAL_PROCESSING_ERROR`, `ECONNRESET`, when the failure had one. */
  code?: string;
  /** When it happened, epoch milliseconds. */
  at: number;
}

/** An outbox payment as `outbox.get(key)` and `outbox.pending()` show it, and `onSettled` gets it. */
export interface OutboxPayment {
  /** The partner's key (e.g. the order id), unique in the outbox. */
  key: string;
  /** The creating operation, e.g. `collection.requestToPay`. */
  operation: string;
  /** The X-Reference-Id it is sent under, chosen at enqueue: the same on every send. */
  referenceId: string;
  /**
   * QUEUED until the provider accepted it, SENT until final, then SUCCESSFUL or FAILED
   * (a refusal, e.g. `INVALID_CURRENCY`, is FAILED at once); CANCELLED by `cancel()`.
   */
  status: OutboxStatus;
  /**
   * The provider's reason code of a FAILED payment (or the code of a refusal); the reason
   * given to `cancel()` of a CANCELLED one.
   */
  reason?: string;
  /** The provider's id of a SUCCESSFUL payment. */
  financialTransactionId?: string;
  /** The body's amount, as enqueued (a decimal string); absent for an operation without one (a pre-approval). */
  amount?: string;
  /** The body's currency, as enqueued; absent for an operation without one. */
  currency?: string;
  /**
   * How many times it was tried and given back to wait (a send or a lookup that failed
   * for now, a 429): its retry time grows with it. 0 for a payment that went straight through.
   */
  attempts: number;
  /** Why it was last given back, while it waits (and kept once final). */
  lastError?: OutboxLastError;
  /**
   * The tenant whose credentials send it (`momo-partner-sdk/tenants`), as enqueued; absent
   * for a payment of a client of its own.
   */
  tenant?: string;
}

/**
 * An outbox that can list what it holds (`db.outbox` of `momo-partner-sdk/postgres`):
 * what `reconcile` (momo-partner-sdk/reconcile) reads to find the payments the books lack.
 */
export interface OutboxListing {
  /**
   * Every payment it holds, whatever its status, in enqueue order; with `since`, only
   * those enqueued at or after it (epoch ms).
   */
  payments(options?: { since?: number }): AsyncIterable<OutboxPayment>;
}

/** What `enqueue` records: the payment intent, checked as the creating call checks it. */
export interface OutboxIntent {
  /** Unique in the outbox; the same key and body again return the same reference id. */
  key: string;
  /** A creating operation with a status lookup, e.g. `collection.requestToPay`. */
  operation: string;
  /** The creating call's body. */
  body: unknown;
  /** The callback URL the provider is asked to call (`{referenceId}` is filled in). */
  callbackUrl?: string | undefined;
  /**
   * The tenant whose credentials send it (`momo-partner-sdk/tenants`: a tenant id, e.g.
   * `merchant-42`): a relay sends it only with that tenant's client. Absent: a client of no
   * tenant sends it. The same key enqueued again under another tenant is refused.
   */
  tenant?: string | undefined;
}

/** A row a relay holds: the payment, its body, and the claim every write of it carries. */
export interface OutboxClaim extends OutboxPayment {
  body: unknown;
  callbackUrl?: string | undefined;
  /** The fencing token of this claim: a write under an older token is refused. */
  token: string;
  /** Whether the final outcome was already recorded, or it was cancelled (its delivery is what is left). */
  settled: boolean;
}

/** A final outcome, as the relay records it (CANCELLED: only as `cancel()` recorded it). */
export interface OutboxOutcome {
  status: 'SUCCESSFUL' | 'FAILED' | 'CANCELLED';
  reason?: string;
  financialTransactionId?: string;
}

/** Why a payment is given back to wait: its `lastError`, and whether its send may have reached the provider. */
export interface OutboxSetback {
  error: OutboxLastError;
  /**
   * The send's answer is not known (a 408, a 5xx, a lost connection after the retries):
   * the provider may hold the payment, so it can no longer be cancelled. Stays true once set.
   */
  maybeSent: boolean;
}

/**
 * What a relay needs of its store. Every write carries the claim's token and is refused
 * (false, nothing written) once the lease ran out or another relay claimed the row.
 * `Tx` is the store's transaction handle that `onSettled` is given.
 */
export interface OutboxStore<Tx = unknown> {
  /** How long a claim lasts without renewal; the relay renews at a third of it. */
  readonly leaseMs: number;
  /**
   * Claims up to `limit` due rows, oldest first: undelivered, unclaimed or whose lease ran
   * out, their retry time passed; never waiting on another relay's claim. With `tenant`,
   * only the rows of that tenant (`null`: only rows without one); without it, every row.
   */
  claim(owner: string, limit: number, tenant?: string | null): Promise<OutboxClaim[]>;
  /**
   * Records that the provider accepted the payment. The relay has freed the send slot
   * by then: a crash before it is recorded only means a re-send, whose 409 proves it.
   */
  markSent(key: string, token: string): Promise<boolean>;
  /**
   * In one transaction: the final outcome recorded and marked delivered, and `deliver`
   * run in it. False when fenced out (nothing written, `deliver` not run). A throw of
   * `deliver` rolls both back and is rethrown. Without `deliver` (no `onSettled`), the
   * outcome is recorded and marked delivered alone. A store may write many payments'
   * outcomes in one statement or transaction, each fenced by its own claim.
   */
  settle(
    key: string,
    token: string,
    outcome: OutboxOutcome,
    deliver?: (payment: OutboxPayment, tx: Tx) => Promise<void>,
  ): Promise<boolean>;
  /**
   * Gives the row back (claim cleared) to be claimed again in `retryInMs` (0: at once),
   * with its final outcome recorded when given (undelivered: the delivery runs again),
   * and why (`setback`: recorded as its `lastError`) when a failure sent it back.
   */
  giveBack(
    key: string,
    token: string,
    retryInMs: number,
    outcome?: OutboxOutcome,
    setback?: OutboxSetback,
  ): Promise<boolean>;
  /** Renews the leases of these claims; resolves to the tokens still held. */
  renew(tokens: readonly string[]): Promise<Set<string>>;
  /** Calls `wake` when new intents may be due (e.g. a NOTIFY); returns the unsubscribe. */
  subscribe(wake: () => void): () => void;
  /**
   * Every payment it holds (`OutboxListing`). Optional (a store of your own type-checks
   * without it): a store that has it can be given to `reconcile` as its `outbox`.
   */
  payments?(options?: { since?: number }): AsyncIterable<OutboxPayment>;
}
