import type { ProductName } from '../core/options';
import { referenceKey } from '../core/reference-id';

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
  /**
   * Every pending entry, oldest first by `createdAt`; entries of the same millisecond in
   * the order they were recorded (never by reference id).
   */
  pending(): Promise<JournalEntry[]>;
}

/** Options of the default in-memory journal. */
export interface InMemoryJournalOptions {
  /** How long a finished entry stays readable by `get()`. Default 1 hour. */
  retentionMs?: number;
  /**
   * Bound on finished entries held (the oldest go first). Pending entries are never
   * dropped: they are money in flight. Default 10 000.
   */
  maxEntries?: number;
}

/**
 * The default journal: this process only, gone with it. Pending and finished entries
 * live apart, so that neither bound nor retention ever costs a walk over what is in
 * flight, and no pending entry is ever evicted.
 */
export class InMemoryJournal implements Journal {
  /** By lower-cased reference id, oldest first. */
  readonly #pending = new Map<string, JournalEntry>();
  /** By lower-cased reference id, in the order they finished. */
  readonly #finished = new Map<string, JournalEntry>();
  readonly #retentionMs: number;
  readonly #maxEntries: number;

  constructor(options: InMemoryJournalOptions = {}) {
    this.#retentionMs = options.retentionMs ?? 60 * 60 * 1000;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  async record(entry: JournalRecord): Promise<void> {
    const key = referenceKey(entry.referenceId);
    if (this.#pending.has(key)) return; // an id already pending keeps its first record
    this.#finished.delete(key);
    this.#pending.set(key, { ...entry });
  }

  async finish(referenceId: string, outcome: JournalOutcome, finishedAt: number): Promise<void> {
    const key = referenceKey(referenceId);
    const entry = this.#pending.get(key);
    if (!entry) return;
    this.#pending.delete(key);
    this.#finished.set(key, Object.assign(entry, { outcome, finishedAt }));
    this.#prune(Date.now());
  }

  async get(referenceId: string): Promise<JournalEntry | undefined> {
    const key = referenceKey(referenceId);
    const entry = this.#pending.get(key) ?? this.#finished.get(key);
    return entry && !this.#expired(entry, Date.now()) ? { ...entry } : undefined;
  }

  async pending(): Promise<JournalEntry[]> {
    return [...this.#pending.values()]
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((entry) => ({ ...entry }));
  }

  /** Takes every entry out (pending and finished), e.g. to copy them to a durable journal. */
  drain(): JournalEntry[] {
    const all = [...this.#finished.values(), ...this.#pending.values()];
    this.#pending.clear();
    this.#finished.clear();
    return all;
  }

  /** Entries kept in memory (pending and finished). */
  get size(): number {
    return this.#pending.size + this.#finished.size;
  }

  #expired(entry: JournalEntry, now: number): boolean {
    return entry.finishedAt !== undefined && entry.finishedAt + this.#retentionMs <= now;
  }

  /** Drops finished entries past their retention or over the bound, oldest first: O(dropped). */
  #prune(now: number): void {
    for (const [key, entry] of this.#finished) {
      if (this.#finished.size <= this.#maxEntries && !this.#expired(entry, now)) return;
      this.#finished.delete(key);
    }
  }
}
