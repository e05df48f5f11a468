import type { Operation } from '../core/operation';
import { isApiError, ValidationError } from '../errors';
import type { ComponentHealth } from './health';
import {
  InMemoryJournal,
  type Journal,
  type JournalEntry,
  type JournalOutcome,
  type JournalRecord,
} from './journal';

/**
 * The client's side of its journal. The write is awaited before a creating call is
 * sent. A journal that fails (Redis down) never fails a payment: the entry is kept in
 * memory, the outage is reported once, and the kept entries are copied to the journal
 * when it answers again.
 */
export class JournalKeeper {
  readonly journal: Journal;
  readonly #fallback: InMemoryJournal | undefined;
  readonly #health: ComponentHealth;
  /** Outcomes of entries the journal holds, seen while it was unreachable. */
  readonly #lateOutcomes = new Map<string, { outcome: JournalOutcome; at: number }>();
  /** Ids marked lately: a wait and its last lookup both report the same outcome. */
  readonly #recentlyFinished = new Set<string>();
  #flushing: Promise<void> | undefined;

  constructor(journal: Journal | undefined, health: ComponentHealth) {
    requireMethods(journal, 'journal', ['record', 'finish', 'get', 'pending']);
    this.journal = journal ?? new InMemoryJournal();
    // The default journal is in memory already: nothing to fall back to.
    this.#fallback = journal ? new InMemoryJournal() : undefined;
    this.#health = health;
  }

  /**
   * Sends a creating call, handing `send` the step that records it: the transport runs
   * that step once the input is checked and before the first attempt leaves (a bad input
   * is neither sent nor recorded). A refusal that proves nothing was created marks it
   * REJECTED; any other failure leaves it pending, for a lookup to settle.
   */
  async send<T>(
    op: Pick<Operation, 'name' | 'product'>,
    referenceId: string | undefined,
    send: (beforeSend: (() => Promise<void>) | undefined) => Promise<T>,
  ): Promise<T> {
    if (referenceId === undefined) return send(undefined);
    let recorded = false;
    const beforeSend = async () => {
      const createdAt = Date.now();
      await this.record({ product: op.product, operation: op.name, referenceId, createdAt });
      recorded = true;
    };
    try {
      return await send(beforeSend);
    } catch (error) {
      if (recorded && refusedOutright(error)) await this.finish(referenceId, 'REJECTED');
      throw error;
    }
  }

  async record(entry: JournalRecord): Promise<void> {
    this.#recentlyFinished.delete(entry.referenceId.toLowerCase());
    await this.#write((journal) => journal.record(entry));
  }

  async finish(referenceId: string, outcome: JournalOutcome): Promise<void> {
    const key = referenceId.toLowerCase();
    if (this.#recentlyFinished.has(key)) return;
    this.#recentlyFinished.add(key);
    if (this.#recentlyFinished.size > MAX_RECENTLY_FINISHED) {
      this.#recentlyFinished.delete(this.#recentlyFinished.values().next().value as string);
    }
    const at = Date.now();
    await this.#write(async (journal) => {
      if (journal !== this.#fallback || (await journal.get(referenceId))) {
        return journal.finish(referenceId, outcome, at);
      }
      // Recorded durably before the outage: finish it there once it is back.
      if (this.#lateOutcomes.size < MAX_LATE_OUTCOMES) {
        this.#lateOutcomes.set(referenceId, { outcome, at });
      }
    });
  }

  /** An entry, or undefined (also when the journal cannot be read). */
  async get(referenceId: string): Promise<JournalEntry | undefined> {
    const kept = await this.#fallback?.get(referenceId);
    if (kept) return kept;
    try {
      const entry = await this.journal.get(referenceId);
      this.#answered();
      return entry;
    } catch (error) {
      this.#health.failed(error);
      return undefined;
    }
  }

  /** Pending entries of the journal and of the in-memory fallback; throws if the journal fails. */
  async pending(): Promise<JournalEntry[]> {
    const durable = await this.journal.pending();
    this.#answered();
    const kept = (await this.#fallback?.pending()) ?? [];
    const seen = new Set(durable.map((entry) => entry.referenceId.toLowerCase()));
    const merged = [...durable, ...kept.filter((e) => !seen.has(e.referenceId.toLowerCase()))];
    return merged.sort((a, b) => a.createdAt - b.createdAt);
  }

  async #write(write: (journal: Journal) => Promise<void>): Promise<void> {
    if (!this.#fallback) return write(this.journal);
    try {
      await write(this.journal);
      this.#answered();
    } catch (error) {
      this.#health.failed(error);
      await write(this.#fallback);
    }
  }

  /** The journal answered: report it, and copy what was kept in memory meanwhile. */
  #answered(): void {
    this.#health.ok();
    const kept = (this.#fallback?.size ?? 0) + this.#lateOutcomes.size;
    if (kept > 0 && !this.#flushing) {
      this.#flushing = this.#flush().finally(() => {
        this.#flushing = undefined;
      });
    }
  }

  async #flush(): Promise<void> {
    for (const [referenceId, { outcome, at }] of this.#lateOutcomes) {
      try {
        await this.journal.finish(referenceId, outcome, at);
        this.#lateOutcomes.delete(referenceId);
      } catch {
        return; // down again: the next recovery flushes
      }
    }
    const entries = this.#fallback?.drain() ?? [];
    for (const [index, entry] of entries.entries()) {
      try {
        const { outcome, finishedAt, ...record } = entry;
        await this.journal.record(record);
        if (outcome && finishedAt)
          await this.journal.finish(entry.referenceId, outcome, finishedAt);
      } catch {
        // Down again: keep the rest in memory for the next recovery.
        for (const rest of entries.slice(index)) await this.#keepAgain(rest);
        return;
      }
    }
  }

  async #keepAgain(entry: JournalEntry): Promise<void> {
    const { outcome, finishedAt, ...record } = entry;
    await this.#fallback?.record(record);
    if (outcome && finishedAt) await this.#fallback?.finish(entry.referenceId, outcome, finishedAt);
  }
}

const MAX_LATE_OUTCOMES = 10_000;
const MAX_RECENTLY_FINISHED = 1_000;

/**
 * A 4xx other than 409 (an id already taken: maybe by an earlier attempt) and 429 says
 * the request itself was refused: the same body and credentials were refused on every
 * attempt, so nothing was created.
 */
function refusedOutright(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 409 && error.status !== 429;
}

/** A ValidationError naming the option when it lacks one of these methods. */
export function requireMethods(value: unknown, option: string, methods: string[]): void {
  if (value === undefined) return;
  const missing = methods.filter(
    (name) => typeof (value as Record<string, unknown> | null)?.[name] !== 'function',
  );
  if (missing.length > 0) {
    throw new ValidationError([{ path: option, message: `must have ${missing.join(', ')}()` }]);
  }
}
