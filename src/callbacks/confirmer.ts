import { isFinal, type StatusLike } from '../schemas/common';

/** What one status lookup said about a reference id: a result (or none), or its failure. */
export type Confirmation =
  | { result: StatusLike | undefined; error?: undefined }
  | { result?: undefined; error: unknown };

/** A confirmation, and whether this call's own lookup made it (not a shared or a kept one). */
export interface Confirmed {
  confirmation: Confirmation;
  fresh: boolean;
}

export interface ConfirmLimits {
  /** Status lookups confirming callbacks at once; more distinct ids get 'busy'. */
  maxConfirms: number;
  /** How long a non-final confirmation answers for its id without another lookup. */
  confirmIntervalMs: number;
}

/** Bounded, so that forged ids cannot grow the memory of what was confirmed. */
const MAX_KEPT = 10_000;

interface Kept {
  confirmation: Confirmation;
  at: number;
  final: boolean;
}

/**
 * Confirms callbacks by status lookups at a fixed cost, whatever arrives: one lookup in
 * flight per reference id (concurrent callbacks share it), a final result kept and
 * reused, anything else reused for `confirmIntervalMs`, and at most `maxConfirms`
 * lookups at once. What forged callbacks can cost is `maxConfirms` lookups in flight.
 */
export class Confirmer {
  readonly #limits: ConfirmLimits;
  readonly #inFlight = new Map<string, Promise<Confirmation>>();
  readonly #kept = new Map<string, Kept>();

  constructor(limits: ConfirmLimits) {
    this.#limits = limits;
  }

  /** The confirmation of `referenceId`, or `'busy'` when `maxConfirms` lookups are running. */
  confirm(
    referenceId: string,
    lookup: () => Promise<StatusLike | undefined>,
  ): Promise<Confirmed> | 'busy' {
    const key = referenceId.toLowerCase();
    const kept = this.#kept.get(key);
    if (kept && (kept.final || Date.now() - kept.at < this.#limits.confirmIntervalMs)) {
      return Promise.resolve({ confirmation: kept.confirmation, fresh: false });
    }
    const running = this.#inFlight.get(key);
    if (running) return running.then((confirmation) => ({ confirmation, fresh: false }));
    if (this.#inFlight.size >= this.#limits.maxConfirms) return 'busy';

    const made = Promise.resolve()
      .then(lookup)
      .then(
        (result): Confirmation => ({ result }),
        (error: unknown): Confirmation => ({ error }),
      );
    this.#inFlight.set(key, made);
    return made.then((confirmation) => {
      this.#inFlight.delete(key);
      this.#keep(key, confirmation);
      return { confirmation, fresh: true };
    });
  }

  #keep(key: string, confirmation: Confirmation): void {
    const final = confirmation.result !== undefined && isFinal(confirmation.result);
    this.#kept.delete(key); // re-inserted: newest last
    this.#kept.set(key, { confirmation, at: Date.now(), final });
    if (this.#kept.size > MAX_KEPT) {
      const oldest = this.#kept.keys().next().value;
      if (oldest !== undefined) this.#kept.delete(oldest);
    }
  }
}
