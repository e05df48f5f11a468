import type { ComponentHealth } from '../contracts/health';
import type { Journal, JournalEntry, JournalOutcome, JournalRecord } from '../contracts/journal';
import type { Operation } from '../core/operation';
import { referenceKey } from '../core/reference-id';
import { journalOutcome, sendFailure } from '../payments/failure';
import { InMemoryJournal } from './journal';
import { requireMethods } from './require-methods';

/** Where a client sends its calls, and for which tenant: only there are they looked up. */
export interface Platform {
  baseUrl: string;
  targetEnvironment: string;
  /** `MomoClientOptions.tenant`: stamped on every entry, whatever the journal (TN8). */
  tenant?: string;
}

interface Mirrored {
  entry: JournalEntry;
  /** When the journal held it (Date.now()). */
  at: number;
}

/**
 * The client's side of its journal. The write is awaited before a creating call is
 * sent. A journal that fails (Redis down, or refusing) never fails a payment: the entry
 * is kept in memory, the failure is reported (health), and what was kept is copied to
 * the journal when it answers again. What this process recorded is always visible to
 * `pending()`: in the journal, in memory awaiting the copy, or both.
 */
export class JournalKeeper {
  declare readonly journal: Journal;
  declare readonly platform: Platform;
  /** A journal was configured (otherwise `journal` is in memory already). */
  readonly #shared: boolean;
  readonly #health: ComponentHealth;
  /** Recorded while the journal failed: the only copy until flushed, never dropped. */
  readonly #unflushed = new Map<string, JournalEntry>();
  /** Outcomes seen while the journal failed, for entries it (or another instance) holds. */
  readonly #lateOutcomes = new Map<
    string,
    { referenceId: string; outcome: JournalOutcome; at: number; reason?: string | undefined }
  >();
  /** This process's entries the journal holds, not seen final: listed when it cannot be read. */
  readonly #mirror = new Map<string, Mirrored>();
  #oldest: Iterator<string> | undefined; // kept: a new iterator would skip every emptied slot
  #flushing: Promise<void> | undefined;

  constructor(
    journal: Journal | undefined,
    health: ComponentHealth,
    { baseUrl, targetEnvironment }: Platform,
    tenant: string | undefined,
  ) {
    requireMethods(journal, 'journal', ['record', 'finish', 'get', 'pending']);
    this.journal = journal ?? new InMemoryJournal();
    this.#shared = journal !== undefined;
    this.#health = health;
    this.platform = { baseUrl, targetEnvironment, ...(tenant && { tenant }) };
  }

  /** Whether this client may look an entry up: sent to its platform with its tenant's key. */
  isHere(entry: Pick<JournalEntry, 'baseUrl' | 'targetEnvironment' | 'tenant'>): boolean {
    return (
      entry.baseUrl === this.platform.baseUrl &&
      entry.targetEnvironment === this.platform.targetEnvironment &&
      entry.tenant === this.platform.tenant
    );
  }

  /**
   * Sends a creating call, handing `send` the step that records it: the transport runs
   * that step once the input is checked and before the first attempt leaves (a bad input
   * is neither sent nor recorded). Its failure is sorted by the kernel's one
   * classification (`sendFailure`, src/payments/failure.ts, which sits below the journal
   * and the drivers alike) and settled by `outcomes`, the settle point, as
   * `journalOutcome` says: a refusal FAILED with its code; a call that sent nothing
   * NOT_FOUND; anything not known yet pending, for a lookup to settle (the credentials
   * refused, and any refusal after an attempt whose fate is unknown, included).
   */
  send<T>(
    op: Pick<Operation, 'name' | 'product' | 'landed' | 'creates'>,
    referenceId: string | undefined,
    tag: string | undefined,
    send: (beforeSend: (() => Promise<void>) | undefined) => Promise<T>,
    outcomes: {
      settle(
        referenceId: string,
        outcome: JournalOutcome,
        how?: { reason?: string },
      ): Promise<void>;
    },
  ): Promise<T> {
    if (referenceId === undefined) return send(undefined);
    // Promise steps rather than an async frame: every queued creating call holds this one.
    let recorded = false;
    const beforeSend = () =>
      // The platform carries the client's tenant; a tag is never empty (prepare refuses one).
      this.record({
        product: op.product,
        operation: op.name,
        referenceId,
        createdAt: Date.now(),
        ...this.platform,
        ...(tag && { tag }),
      }).then(() => {
        recorded = true;
      });
    return send(beforeSend).catch(async (error: unknown) => {
      const settled = recorded ? journalOutcome(sendFailure(error, op)) : undefined;
      if (settled) await outcomes.settle(referenceId, settled.outcome, settled.how);
      throw error;
    });
  }

  async record(entry: JournalRecord): Promise<void> {
    const key = referenceKey(entry.referenceId);
    if (!this.#shared) return this.journal.record(entry);
    try {
      await this.journal.record(entry);
      this.#remember(key, entry);
      this.#answered();
    } catch (error) {
      this.#health.failed(error);
      if (!this.#unflushed.has(key)) this.#unflushed.set(key, { ...entry });
    }
  }

  /** Marks an outcome; called by the settle point (`outcomes`) only, once per outcome seen. */
  async finish(referenceId: string, outcome: JournalOutcome, reason?: string): Promise<void> {
    const key = referenceKey(referenceId);
    const at = Date.now();
    if (!this.#shared) return this.journal.finish(referenceId, outcome, at, reason);
    this.#mirror.delete(key);
    const kept = this.#unflushed.get(key);
    if (kept) {
      // Not in the journal yet: the flush writes the record and this outcome together.
      if (!kept.outcome) {
        Object.assign(kept, { outcome, finishedAt: at }, reason === undefined ? {} : { reason });
      }
      return;
    }
    try {
      await this.journal.finish(referenceId, outcome, at, reason);
      this.#answered();
    } catch (error) {
      this.#health.failed(error);
      if (this.#lateOutcomes.size < MAX_LATE_OUTCOMES) {
        this.#lateOutcomes.set(key, { referenceId, outcome, at, reason });
      }
    }
  }

  /** An entry, or undefined; while the journal cannot be read, what this process knows. */
  async get(referenceId: string): Promise<JournalEntry | undefined> {
    const key = referenceKey(referenceId);
    if (!this.#shared) return this.journal.get(referenceId);
    const kept = this.#unflushed.get(key);
    if (kept) return { ...kept };
    try {
      const entry = await this.journal.get(referenceId);
      this.#answered();
      const late = this.#lateOutcomes.get(key);
      if (entry && late && !entry.outcome) {
        const lateReason = late.reason === undefined ? {} : { reason: late.reason };
        return { ...entry, outcome: late.outcome, finishedAt: late.at, ...lateReason };
      }
      return entry;
    } catch (error) {
      this.#health.failed(error);
      const mirrored = this.#mirror.get(key);
      return mirrored && { ...mirrored.entry };
    }
  }

  /**
   * Every pending entry, oldest first: the journal's, and this process's own that wait in
   * memory for it (none ever missing, before, during or after a copy). While the journal
   * cannot be read: this process's own pending entries, wherever they are.
   */
  async pending(): Promise<JournalEntry[]> {
    if (!this.#shared) return this.journal.pending();
    // Taken before the read: an entry the flush moves meanwhile is in one or the other.
    const kept = [...this.#unflushed.values()].filter((e) => !e.outcome).map((e) => ({ ...e }));
    const startedAt = Date.now();
    let durable: JournalEntry[];
    try {
      durable = await this.journal.pending();
      this.#answered();
    } catch (error) {
      this.#health.failed(error);
      const mirrored = [...this.#mirror.values()].map(({ entry }) => ({ ...entry }));
      return this.#merge(mirrored, kept);
    }
    const lost = await this.#lostByJournal(durable, startedAt);
    return this.#merge(durable, [...kept, ...lost]);
  }

  /**
   * This process's entries the journal no longer lists: finished elsewhere (it still
   * holds them, finished), or lost (a Redis restarted without persistence): those are
   * kept in memory again, listed, and written back by the next flush.
   */
  async #lostByJournal(durable: JournalEntry[], startedAt: number): Promise<JournalEntry[]> {
    const listed = new Set(durable.map((entry) => referenceKey(entry.referenceId)));
    const absent = [...this.#mirror].filter(([key, { at }]) => at < startedAt && !listed.has(key));
    if (absent.length === 0) return [];
    // Past the journal's usual retention a finished entry is gone too: not a loss.
    const old = absent.filter(([, { entry }]) => entry.createdAt < startedAt - MIRROR_MAX_AGE_MS);
    for (const [key] of old) this.#mirror.delete(key);
    const recent = absent.filter(([key]) => this.#mirror.has(key));
    const found = await Promise.all(
      recent.map(([, { entry }]) =>
        this.journal.get(entry.referenceId).catch(() => 'unknown' as const),
      ),
    );
    const lost: JournalEntry[] = [];
    for (const [index, [key, { entry }]] of recent.entries()) {
      // Finished here meanwhile, or unknown (ask again next time).
      if (!this.#mirror.has(key) || found[index] === 'unknown') continue;
      this.#mirror.delete(key);
      if (found[index] !== undefined) continue;
      this.#unflushed.set(key, { ...entry });
      lost.push({ ...entry });
    }
    if (lost.length > 0) this.#answered(); // write them back
    return lost;
  }

  /** Both lists, each id once, without what this process saw final; oldest first. */
  #merge(first: JournalEntry[], second: JournalEntry[]): JournalEntry[] {
    const seen = new Set<string>();
    const merged: JournalEntry[] = [];
    for (const entry of [...first, ...second]) {
      const key = referenceKey(entry.referenceId);
      if (seen.has(key) || this.#lateOutcomes.has(key) || this.#unflushed.get(key)?.outcome) {
        continue;
      }
      seen.add(key);
      merged.push(entry);
    }
    return merged.sort((a, b) => a.createdAt - b.createdAt);
  }

  #remember(key: string, entry: JournalRecord): void {
    this.#mirror.delete(key);
    this.#mirror.set(key, { entry: { ...entry }, at: Date.now() });
    if (this.#mirror.size > MAX_MIRRORED) {
      this.#oldest ??= this.#mirror.keys(); // past the bound, the oldest go first
      this.#mirror.delete(this.#oldest.next().value as string);
    }
  }

  /** The journal answered: report it, and copy what was kept in memory meanwhile. */
  #answered(): void {
    this.#health.ok();
    if (this.#unflushed.size + this.#lateOutcomes.size > 0 && !this.#flushing) {
      this.#flushing = this.#flush().finally(() => {
        this.#flushing = undefined;
      });
    }
  }

  /**
   * Copies what was kept to the journal, each entry leaving memory only once the journal
   * holds it (so `pending()` always finds it in one or the other). Stops at the first
   * failure: the next answer of the journal starts again.
   */
  async #flush(): Promise<void> {
    try {
      // Again while there is more (entries found lost, or recorded meanwhile elsewhere).
      while (this.#unflushed.size + this.#lateOutcomes.size > 0) await this.#flushOnce();
    } catch (error) {
      this.#health.failed(error);
    }
  }

  async #flushOnce(): Promise<void> {
    for (const [key, late] of [...this.#lateOutcomes]) {
      await this.journal.finish(late.referenceId, late.outcome, late.at, late.reason);
      this.#lateOutcomes.delete(key);
    }
    for (const [key, entry] of [...this.#unflushed]) {
      const { outcome: _, finishedAt: __, reason: ___, ...record } = entry;
      await this.journal.record(record);
      // Read once the record is in: finish() may have marked it meanwhile (the first
      // outcome wins, so it cannot change again while this one is written).
      if (entry.outcome) {
        const { referenceId, outcome, finishedAt, reason } = entry;
        await this.journal.finish(referenceId, outcome, finishedAt ?? 0, reason);
      }
      this.#unflushed.delete(key);
      if (!entry.outcome) this.#remember(key, record);
    }
  }
}

const MAX_LATE_OUTCOMES = 10_000;
const MAX_MIRRORED = 10_000;
/** Mirrored entries older than this are not checked for loss (a finished one may be gone). */
const MIRROR_MAX_AGE_MS = 12 * 60 * 60 * 1000;
