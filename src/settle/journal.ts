import type { Journal, JournalEntry, JournalOutcome, JournalRecord } from '../contracts/journal';
import { referenceKey } from '../core/reference-id';

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

  async finish(
    referenceId: string,
    outcome: JournalOutcome,
    finishedAt: number,
    reason?: string,
  ): Promise<void> {
    const key = referenceKey(referenceId);
    const entry = this.#pending.get(key);
    if (!entry) return;
    this.#pending.delete(key);
    Object.assign(entry, { outcome, finishedAt }, reason === undefined ? {} : { reason });
    this.#finished.set(key, entry);
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

  /** Every entry held (pending, and finished within the retention), oldest first. */
  async *entries(options: { since?: number } = {}): AsyncIterable<JournalEntry> {
    const now = Date.now();
    const since = options.since ?? -Infinity;
    const held = [...this.#finished.values(), ...this.#pending.values()].filter(
      (entry) => entry.createdAt >= since && !this.#expired(entry, now),
    );
    for (const entry of held.sort((a, b) => a.createdAt - b.createdAt)) yield { ...entry };
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
