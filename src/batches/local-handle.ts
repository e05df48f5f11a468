import type {
  BatchClaimToken,
  BatchHandle,
  BatchIntent,
  BatchOutcome,
  BatchRecord,
} from '../contracts/batch-store';

/** Where a single-process store writes what its handle records (nothing, for memory). */
export interface LocalLog {
  /** Writes an intent and returns once it is durable. */
  intent(record: BatchIntent): void;
  /** Writes an outcome (durability not required: losing one costs a lookup). */
  outcome(key: string, outcome: BatchOutcome): void;
  close(): void;
}

interface Lease {
  owner: string;
  token: BatchClaimToken;
  until: number;
}

/**
 * The lease of an in-process claim: long, since a claim dies with its process (a restart
 * holds none), so no dead process's claim can wait on it; renewals stay rare.
 */
const LOCAL_LEASE_MS = 15 * 60_000;

/**
 * One batch's state in one process: its records in memory (in first-recorded order) and
 * in-process leases that honour the claim contract (an unexpired lease of another owner
 * is refused; a write with a superseded token is fenced off).
 */
export class LocalHandle implements BatchHandle {
  readonly id: string;
  readonly leaseMs = LOCAL_LEASE_MS;
  readonly #records = new Map<string, BatchRecord>();
  readonly #leases = new Map<string, Lease>();
  readonly #log: LocalLog;
  #tokens = 0;

  constructor(id: string, log: LocalLog, loaded: Iterable<BatchRecord> = []) {
    this.id = id;
    this.#log = log;
    for (const record of loaded) this.#records.set(record.key, record);
  }

  async *records(): AsyncIterable<BatchRecord> {
    for (const record of this.#records.values()) yield copy(record);
  }

  async get(key: string): Promise<BatchRecord | undefined> {
    const record = this.#records.get(key);
    return record && copy(record);
  }

  async claim(key: string, owner: string, leaseMs: number): Promise<BatchClaimToken | undefined> {
    const now = Date.now();
    const held = this.#leases.get(key);
    if (held && held.owner !== owner && held.until > now) return undefined;
    this.#tokens += 1;
    const token = `${this.#tokens}`;
    this.#leases.set(key, { owner, token, until: now + leaseMs });
    return token;
  }

  async release(key: string, token: BatchClaimToken): Promise<void> {
    if (this.#holds(key, token)) this.#leases.delete(key);
  }

  /** Every live claim of these tokens gets `leaseMs` more: one call for them all. */
  async renew(claims: readonly { key: string; token: BatchClaimToken }[], leaseMs: number) {
    const now = Date.now();
    const kept = new Set<BatchClaimToken>();
    for (const { key, token } of claims) {
      const lease = this.#leases.get(key);
      if (lease?.token !== token || lease.until <= now) continue;
      lease.until = now + leaseMs;
      kept.add(token);
    }
    return kept;
  }

  async recordIntent(intent: BatchIntent, token: BatchClaimToken) {
    if (!this.#holds(intent.key, token)) return undefined;
    const existing = this.#records.get(intent.key);
    if (existing) return copy(existing);
    const record: BatchRecord = {
      key: intent.key,
      operation: intent.operation,
      fingerprint: intent.fingerprint,
      referenceId: intent.referenceId,
    };
    if (intent.tenant !== undefined) record.tenant = intent.tenant;
    this.#log.intent(record); // durable before it counts as recorded
    this.#records.set(record.key, record);
    return copy(record);
  }

  async recordOutcome(key: string, outcome: BatchOutcome, token: BatchClaimToken) {
    const record = this.#records.get(key);
    if (!record || !this.#holds(key, token)) return false;
    const kept = compactOutcome(outcome);
    this.#log.outcome(key, kept);
    // A new record rather than an added property: 100,000 records stay compact objects.
    this.#records.set(key, { ...record, outcome: kept });
    return true;
  }

  async close(): Promise<void> {
    this.#log.close();
  }

  #holds(key: string, token: BatchClaimToken): boolean {
    return this.#leases.get(key)?.token === token;
  }
}

/**
 * The outcome without absent fields, built on an empty literal (whose four in-object slots
 * hold it: a literal given one property and then more keeps the others outside).
 */
function compactOutcome(outcome: BatchOutcome): BatchOutcome {
  const kept = {} as BatchOutcome;
  kept.status = outcome.status;
  if (outcome.reason !== undefined) kept.reason = outcome.reason;
  if (outcome.financialTransactionId !== undefined) {
    kept.financialTransactionId = outcome.financialTransactionId;
  }
  if (outcome.delivered === false) kept.delivered = false;
  return kept;
}

function copy(record: BatchRecord): BatchRecord {
  return record.outcome ? { ...record, outcome: { ...record.outcome } } : { ...record };
}
