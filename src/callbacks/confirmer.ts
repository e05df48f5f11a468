import { referenceKey } from '../core/reference-id';
import { isFinal, type StatusLike } from '../schemas/common';

/** What one status lookup said about a reference id: a result (or none), or its failure. */
export type Confirmation =
  | { result: StatusLike | undefined; error?: undefined }
  | { result?: undefined; error: unknown };

export interface ConfirmLimits {
  /** Status lookups confirming callbacks at once; more distinct ids get 'busy'. */
  maxConfirms: number;
  /** How long a non-final confirmation answers for its id without another lookup. */
  confirmIntervalMs: number;
}

/** Told once per lookup made, whatever number of callbacks share it. */
export interface ConfirmEvents {
  /** A final result: wake the waits, tell the journal and other instances (awaited). */
  final(referenceId: string, result: StatusLike): Promise<void>;
  failed(referenceId: string, error: unknown): void;
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
 * lookups at once. A callback claiming a final status that a kept PENDING contradicts
 * is held until the interval ends and then confirmed by one fresh lookup shared with
 * every other such callback: a genuine callback right after forged ones is still
 * believed, and forged callbacks cost one lookup per id per interval.
 */
export class Confirmer {
  readonly #limits: ConfirmLimits;
  readonly #events: ConfirmEvents;
  readonly #inFlight = new Map<string, Promise<Confirmation>>();
  readonly #held = new Map<string, Promise<Confirmation | 'busy'>>();
  readonly #kept = new Map<string, Kept>();

  constructor(limits: ConfirmLimits, events: ConfirmEvents) {
    this.#limits = limits;
    this.#events = events;
  }

  /** The confirmation of `referenceId`, or `'busy'` when `maxConfirms` lookups are running. */
  confirm(
    referenceId: string,
    lookup: () => Promise<StatusLike | undefined>,
    claimed: string,
  ): Promise<Confirmation | 'busy'> {
    const key = referenceKey(referenceId);
    const kept = this.#kept.get(key);
    const age = kept ? Date.now() - kept.at : Number.POSITIVE_INFINITY;
    if (kept && (kept.final || age < this.#limits.confirmIntervalMs)) {
      const contradicted =
        !kept.final &&
        kept.confirmation.result !== undefined &&
        isFinal({ status: claimed }) &&
        claimed !== kept.confirmation.result.status;
      if (!contradicted) return Promise.resolve(kept.confirmation);
      return this.#holdUntil(key, kept.at + this.#limits.confirmIntervalMs, () =>
        this.confirm(referenceId, lookup, claimed),
      );
    }
    const running = this.#inFlight.get(key);
    if (running) return running;
    if (this.#inFlight.size >= this.#limits.maxConfirms) return Promise.resolve('busy');

    const made = Promise.resolve()
      .then(lookup)
      .then(
        async (result): Promise<Confirmation> => {
          if (result !== undefined && isFinal(result)) {
            await this.#events.final(referenceId, result);
          }
          return { result };
        },
        (error: unknown): Confirmation => {
          this.#events.failed(referenceId, error);
          return { error };
        },
      )
      .then((confirmation) => {
        this.#inFlight.delete(key);
        this.#keep(key, confirmation);
        return confirmation;
      });
    this.#inFlight.set(key, made);
    return made;
  }

  /** One timer per id, however many callbacks are held on it. */
  #holdUntil(
    key: string,
    at: number,
    then: () => Promise<Confirmation | 'busy'>,
  ): Promise<Confirmation | 'busy'> {
    const held = this.#held.get(key);
    if (held) return held;
    const later = new Promise<void>((resolve) => setTimeout(resolve, at - Date.now())).then(() => {
      this.#held.delete(key);
      return then();
    });
    this.#held.set(key, later);
    return later;
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
