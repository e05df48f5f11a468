import type { Journal, JournalEntry, JournalOutcome, JournalRecord } from 'momo-partner-sdk';

/**
 * One tenant's view of the journal all tenants share: what its client records carries
 * its `tenant`, and it sees (pending, get, entries) only its own entries. So a tenant's
 * `momo.journal.resume()` (run when its client is made again after eviction) resumes its
 * own pending operations only, with its own credentials, and a callback naming another
 * tenant's reference id is not found in this tenant's journal.
 */
export class TenantJournal implements Journal {
  readonly #shared: Journal;
  readonly #tenant: string;

  constructor(shared: Journal, tenant: string) {
    this.#shared = shared;
    this.#tenant = tenant;
  }

  record(entry: JournalRecord): Promise<void> {
    return this.#shared.record({ ...entry, tenant: this.#tenant });
  }

  finish(
    referenceId: string,
    outcome: JournalOutcome,
    finishedAt: number,
    reason?: string,
  ): Promise<void> {
    return this.#shared.finish(referenceId, outcome, finishedAt, reason);
  }

  async get(referenceId: string): Promise<JournalEntry | undefined> {
    const entry = await this.#shared.get(referenceId);
    return entry?.tenant === this.#tenant ? entry : undefined;
  }

  async pending(): Promise<JournalEntry[]> {
    return (await this.#shared.pending()).filter((entry) => entry.tenant === this.#tenant);
  }

  async *entries(options?: { since?: number }): AsyncIterable<JournalEntry> {
    const all = this.#shared.entries?.(options);
    if (!all) return;
    for await (const entry of all) if (entry.tenant === this.#tenant) yield entry;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `TenantJournal(${this.#tenant})`;
  }
}
