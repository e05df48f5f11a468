import type { ProductName } from '../core/options';

/** What is recorded before a creating call leaves: no secrets, no personal data. */
export interface JournalRecord {
  product: ProductName;
  /** The creating operation, e.g. `disbursement.deposit`. */
  operation: string;
  /** X-Reference-Id (or X-CorrelationID) the call is sent with. */
  referenceId: string;
  /** Epoch milliseconds, taken just before sending. */
  createdAt: number;
}

/**
 * How an operation ended, as far as the SDK saw: a final status, `REJECTED` (refused
 * with nothing created), or `NOT_FOUND` (the service has no such transaction).
 */
export type JournalOutcome = 'SUCCESSFUL' | 'FAILED' | 'REJECTED' | 'NOT_FOUND';

export interface JournalEntry extends JournalRecord {
  /** Set once the outcome is known. */
  outcome?: JournalOutcome;
  /** Epoch milliseconds when the outcome became known. */
  finishedAt?: number;
}

/**
 * Operations in flight. The SDK records an operation before it is sent and marks it
 * when its outcome is known; `pending()` is what was sent and never seen final.
 */
export interface Journal {
  /** Records a pending operation. An id already pending keeps its first record. */
  record(entry: JournalRecord): Promise<void>;
  /** Marks an operation finished (no effect on an id the journal does not hold). */
  finish(referenceId: string, outcome: JournalOutcome, finishedAt: number): Promise<void>;
  /** One entry, pending or recently finished. */
  get(referenceId: string): Promise<JournalEntry | undefined>;
  /** Every pending entry, oldest first. */
  pending(): Promise<JournalEntry[]>;
}

export interface InMemoryJournalOptions {
  /** How long a finished entry stays readable by `get()`. Default 1 hour. */
  retentionMs?: number;
  /** Bound on entries held; the oldest finished ones go first, then the oldest pending. Default 10 000. */
  maxEntries?: number;
}

/** The default journal: this process only, gone with it. */
export class InMemoryJournal implements Journal {
  readonly #entries = new Map<string, JournalEntry>();
  readonly #retentionMs: number;
  readonly #maxEntries: number;
  #recordsSincePrune = 0;

  constructor(options: InMemoryJournalOptions = {}) {
    this.#retentionMs = options.retentionMs ?? 60 * 60 * 1000;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  async record(entry: JournalRecord): Promise<void> {
    const key = entry.referenceId.toLowerCase();
    const existing = this.#entries.get(key);
    if (existing && existing.outcome === undefined) return;
    this.#entries.delete(key); // newest last
    this.#entries.set(key, { ...entry });
    // Pruning walks every entry: do it now and then, or when over the bound.
    if (++this.#recordsSincePrune >= 256 || this.#entries.size > this.#maxEntries) {
      this.#recordsSincePrune = 0;
      this.#prune(Date.now());
    }
  }

  async finish(referenceId: string, outcome: JournalOutcome, finishedAt: number): Promise<void> {
    const entry = this.#entries.get(referenceId.toLowerCase());
    if (entry && entry.outcome === undefined) Object.assign(entry, { outcome, finishedAt });
  }

  async get(referenceId: string): Promise<JournalEntry | undefined> {
    const entry = this.#entries.get(referenceId.toLowerCase());
    return entry && !this.#expired(entry, Date.now()) ? { ...entry } : undefined;
  }

  async pending(): Promise<JournalEntry[]> {
    return [...this.#entries.values()]
      .filter((entry) => entry.outcome === undefined)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((entry) => ({ ...entry }));
  }

  /** Takes every entry out (pending and finished), e.g. to copy them to a durable journal. */
  drain(): JournalEntry[] {
    const all = [...this.#entries.values()];
    this.#entries.clear();
    return all;
  }

  /** Entries kept in memory (pending and finished). */
  get size(): number {
    return this.#entries.size;
  }

  #expired(entry: JournalEntry, now: number): boolean {
    return entry.finishedAt !== undefined && entry.finishedAt + this.#retentionMs <= now;
  }

  #prune(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (this.#expired(entry, now)) this.#entries.delete(key);
    }
    for (const wanted of [true, false]) {
      for (const [key, entry] of this.#entries) {
        if (this.#entries.size <= this.#maxEntries) return;
        if ((entry.outcome !== undefined) === wanted) this.#entries.delete(key);
      }
    }
  }
}
