import type { JournalOutcome } from '../contracts/journal';
import type { Poller } from '../polling/poller';
import { isFinal, type StatusLike } from '../schemas/common';
import type { CallbackFanOut } from './callback-bus';
import type { JournalKeeper } from './journal-keeper';

/** How an outcome became known, beyond the outcome itself. */
export interface Settling {
  /**
   * The lookup result that confirmed a callback: the only kind of outcome shared with
   * the other instances (a token-verified callback, a lookup of the partner's own, a
   * resume or a refusal is marked in the journal only).
   */
  confirmed?: StatusLike;
  /** The code of a refusal settled FAILED (kept in the journal beside the outcome). */
  reason?: string;
}

/**
 * The one place an operation becomes final, for the client's journal, its waits and its
 * callback bus. Each outcome is settled once, where it is observed: a final lookup
 * result (by the lookup), a confirmed callback (by its confirmation: the lookup that
 * confirms a callback leaves the settling to it), a token-verified callback of an
 * operation without a lookup, a resume's NOT_FOUND, a refusal's FAILED (with its code), a call
 * that sent nothing (NOT_FOUND), and the 200 of
 * a call whose answer is its outcome. A wait settles nothing: its final result comes from
 * a lookup or a confirmation that settled it already. Two lookups that each see the
 * final status settle it twice; the journal keeps the first outcome.
 */
export class Outcomes {
  readonly #journal: JournalKeeper;
  readonly #bus: CallbackFanOut;
  readonly #poller: Poller;

  constructor(journal: JournalKeeper, bus: CallbackFanOut, poller: Poller) {
    this.#journal = journal;
    this.#bus = bus;
    this.#poller = poller;
  }

  /** Marks the operation final in the journal; a confirmed result goes to every instance. */
  async settle(referenceId: string, outcome: JournalOutcome, how: Settling = {}): Promise<void> {
    await this.#journal.finish(referenceId, outcome, how.reason);
    if (how.confirmed) await this.#bus.publish(referenceId, how.confirmed);
  }

  /** Settles a status that is final (SUCCESSFUL or FAILED); any other is no outcome yet. */
  async settleStatus(referenceId: string, status: unknown, how?: Settling): Promise<void> {
    if (status === 'SUCCESSFUL' || status === 'FAILED') await this.settle(referenceId, status, how);
  }

  /**
   * Ends this process's waits on `referenceId` with a final result already settled (they
   * make no further lookup); a result that is not final wakes nothing.
   */
  wake(referenceId: string, settled: StatusLike): void {
    if (isFinal(settled)) this.#poller.wake(referenceId, settled);
  }
}
