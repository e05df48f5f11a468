import type { JournalEntry } from './contracts/journal';
import type { Final } from './contracts/wait';
import { isNotFoundError, ValidationError } from './errors';
import { inspectSymbol } from './inspect';
import type { ClientContext } from './products/client-context';
import type { StatusLike } from './schemas/common';
import { lookupOf } from './settle/lookups';

/** Options of `momo.journal.resume()`. */
export interface ResumeOptions {
  /** Waits in progress at once. Default 8. */
  concurrency?: number;
  /** Stops resuming: running waits end UNRESOLVED, the rest are not started. */
  signal?: AbortSignal;
  /** Deadline of each wait; default `polling.timeoutMs`. */
  timeoutMs?: number;
  /** Called with each outcome as soon as it is known. */
  onResult?(outcome: ResumeOutcome): void | Promise<void>;
}

/**
 * How a resumed operation ended. `NOT_FOUND`: the service has no such transaction, so
 * the request never landed (sending it again, with the same reference id, is safe).
 * `UNRESOLVED`: still pending (wait timed out, aborted, lookup failed: `error`; or the
 * operation has no status lookup: no `error`); it stays in `pending()`.
 * `OTHER_PLATFORM`: sent to another platform (`entry.baseUrl`, `entry.targetEnvironment`),
 * or with another tenant's credentials (`entry.tenant` is not this client's `tenant`): its
 * status exists only there, so it was not looked up; it stays in `pending()` for a client
 * of that platform and tenant to resume.
 */
export type ResumeOutcome =
  | { entry: JournalEntry; status: 'SUCCESSFUL' | 'FAILED'; result: Final<StatusLike> }
  | { entry: JournalEntry; status: 'NOT_FOUND' }
  | { entry: JournalEntry; status: 'UNRESOLVED'; error?: unknown }
  | { entry: JournalEntry; status: 'OTHER_PLATFORM' };

const DEFAULT_CONCURRENCY = 8;

/**
 * `momo.journal`: the operations this client (or, with a shared journal, any instance
 * before a crash or a deploy) sent and never saw final, and a way to see them through.
 */
export interface ClientJournal {
  /**
   * Sent and never seen final, oldest first, whatever platform each went to (see
   * `baseUrl`, `targetEnvironment`).
   */
  pending(): Promise<JournalEntry[]>;
  /**
   * One entry by its reference id, pending or finished (while the journal keeps finished
   * ones), whatever platform it went to; `undefined` when the journal does not hold it.
   */
  get(referenceId: string): Promise<JournalEntry | undefined>;
  /**
   * Awaits every pending operation of this client's platform by its status lookup, a few
   * at a time, reports each outcome, and marks it in the journal; another platform's are
   * reported `OTHER_PLATFORM`, untouched. Resolves with every outcome, in journal order.
   */
  resume(options?: ResumeOptions): Promise<ResumeOutcome[]>;
}

/** The client's journal view (the interface keeps the client's internals out of the types). */
export class JournalView implements ClientJournal {
  readonly #ctx: ClientContext;

  constructor(ctx: ClientContext) {
    this.#ctx = ctx;
  }

  /** Sent and never seen final, oldest first. */
  pending(): Promise<JournalEntry[]> {
    return this.#ctx.journal.pending();
  }

  /** One entry, pending or finished, by its reference id. */
  get(referenceId: string): Promise<JournalEntry | undefined> {
    return this.#ctx.journal.get(referenceId);
  }

  /**
   * Awaits every pending operation by its status lookup, a few at a time, reports each
   * outcome, and marks it in the journal. Resolves with every outcome, in journal order.
   */
  async resume(options: ResumeOptions = {}): Promise<ResumeOutcome[]> {
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new ValidationError(
        [{ path: 'concurrency', message: 'must be a whole number, 1 or more' }],
        {
          operation: 'journal.resume',
        },
      );
    }
    const entries = await this.pending();
    const outcomes: ResumeOutcome[] = new Array(entries.length);
    let next = 0;
    const worker = async () => {
      while (next < entries.length && !options.signal?.aborted) {
        const index = next++;
        const outcome = await this.#settle(entries[index] as JournalEntry, options);
        outcomes[index] = outcome;
        await this.#report(outcome, options);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
    return outcomes.filter((outcome) => outcome !== undefined);
  }

  async #settle(entry: JournalEntry, options: ResumeOptions): Promise<ResumeOutcome> {
    if (!this.#ctx.journal.isHere(entry)) return { entry, status: 'OTHER_PLATFORM' };
    const lookup = lookupOf(this.#ctx, entry.operation);
    if (!lookup) return { entry, status: 'UNRESOLVED' };
    try {
      const result = await this.#ctx.api.waitFor(
        lookup,
        entry.referenceId,
        {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        },
        entry.createdAt, // a 404 soon after sending means "not visible yet"
      );
      return { entry, status: result.status, result } as ResumeOutcome;
    } catch (error) {
      if (!isNotFoundError(error)) return { entry, status: 'UNRESOLVED', error };
      await this.#ctx.outcomes.settle(entry.referenceId, 'NOT_FOUND');
      return { entry, status: 'NOT_FOUND' };
    }
  }

  async #report(outcome: ResumeOutcome, options: ResumeOptions): Promise<void> {
    try {
      await options.onResult?.(outcome);
    } catch {
      // One failing report must not stop the others from being resumed.
      this.#ctx.config.log('error', 'journal.resume: onResult threw', {
        referenceId: outcome.entry.referenceId,
        operation: outcome.entry.operation,
      });
    }
  }

  [inspectSymbol](): string {
    return 'ClientJournal';
  }
}
