import type { ComponentHealth } from '../../contracts/health';
import type { RateClass, SharedRateBudget } from '../../contracts/rate-budget';
import { type RateBudget, SAFETY_MARGIN_MS, SlidingWindowBudget } from './budget';
import type { ProviderPace } from './pace';

/**
 * How late after its moment a reservation may still be used (a timer firing late, an
 * event loop busy for a moment). Reservations are spaced this much wider than the
 * in-process budget's, so that a call sent up to this late still never makes N + 1 in a
 * sliding second; one used later is lost instead, and a new one is asked for
 * (docs/assumptions.md, G13).
 */
export const LATE_MS = 20;
/** After the shared budget failed, the process's own budget decides this long before it is asked again. */
const ASK_AGAIN_MS = 1_000;

/** The `rateBudget` option, and where its failures are reported (`momo.health().rateBudget`). */
export interface SharedBudgetSettings {
  budget: SharedRateBudget;
  health: ComponentHealth;
}

/**
 * A class's budget shared by every process (the `rateBudget` option): one reservation
 * at a time is asked for while calls of the class wait, and the class's next call goes
 * at its moment. The stage is woken (`wake`) when a reservation comes. When the shared
 * budget fails, the process's own budget decides (as without `rateBudget`) until it
 * answers again; it counts every call this process sent, and a call goes only once both
 * allow it, so that neither switch makes a burst.
 *
 * The provider's pauses are shared through it too, when it can (`pause`, `pausedUntil`):
 * a pause an answer of this process asked for is recorded in the store, where every
 * later reservation of the class waits it out, whichever process asks; and a pause the
 * store shows after a reservation holds this process's class as its own would
 * (docs/assumptions.md, JE4).
 */
export class ReservedBudget implements RateBudget {
  readonly #shared: SharedRateBudget;
  readonly #kind: RateClass;
  readonly #rate: number;
  readonly #health: ComponentHealth;
  readonly #wake: () => void;
  readonly #local: SlidingWindowBudget;
  /** The moment of the reservation held (undefined: none). */
  #at: number | undefined;
  #asking = false;
  /**
   * Set when the shared budget failed last: the local one decides, and the shared one is
   * asked again from then (0: it answered last; one field, set only by a failure).
   */
  #askAgainAt = 0;
  readonly #pace: ProviderPace | undefined;
  /** The end (this process's clock) of the latest pause recorded in the store from here. */
  #sharedUntil = 0;

  constructor(
    settings: SharedBudgetSettings,
    kind: RateClass,
    rate: number,
    wake: () => void,
    pace?: ProviderPace,
  ) {
    this.#shared = settings.budget;
    this.#health = settings.health;
    this.#kind = kind;
    this.#rate = rate;
    this.#wake = wake;
    this.#local = new SlidingWindowBudget(rate);
    this.#pace = pace;
    // A pause this process's answer asked for is recorded once per pause (the calls refused
    // together by one episode ask for about the same end); a store that cannot be reached
    // leaves it this process's own, as without `pause`, reported as the budget's health.
    if (pace)
      pace.onPause = (ms) => {
        const until = Date.now() + ms;
        if (this.#shared.pause === undefined || until <= this.#sharedUntil) return;
        this.#sharedUntil = until;
        Promise.resolve()
          .then(() => this.#shared.pause?.(this.#kind, ms))
          .catch((error: unknown) => this.#health.failed(error));
      };
  }

  take(now: number): number {
    if (this.#askAgainAt > 0) {
      if (!this.#asking && now >= this.#askAgainAt) this.#ask();
      return this.#local.take(now);
    }
    const at = this.#at;
    if (at !== undefined) {
      // At its moment, and once this process's own calls allow it (right after an outage).
      const wait = Math.max(at - now, this.#local.wait(now));
      if (now + wait <= at + LATE_MS) {
        if (wait > 0) return Math.ceil(wait);
        this.#at = undefined;
        this.#local.note(now);
        return 0;
      }
      this.#at = undefined; // too late to be used safely: lost, a new one is asked for
    }
    // This process's own last second first: the shared budget did not see the calls it
    // sent on its own while the shared one failed.
    const own = this.#local.wait(now);
    if (own > 1_000 / this.#rate) return own;
    if (!this.#asking) this.#ask();
    return Infinity; // until `wake`
  }

  #ask(): void {
    this.#asking = true;
    // A microtask later, as the pause's record: a throw becomes the rejection.
    Promise.resolve()
      .then(() => this.#shared.reserve(this.#kind, this.#rate, SAFETY_MARGIN_MS + LATE_MS))
      .then((at) => {
        // Number.isFinite: false for anything not a number too.
        if (!Number.isFinite(at)) {
          throw new TypeError('rateBudget.reserve() did not resolve with a time');
        }
        this.#at = at;
        // A pause the store showed with it (another process's): held here too.
        const now = Date.now();
        const until = this.#shared.pausedUntil?.(this.#kind) ?? 0;
        if (until > now) this.#pace?.pausedElsewhere(now, until);
        this.#askAgainAt = 0;
        this.#health.ok();
      })
      .catch((error: unknown) => {
        this.#askAgainAt = Date.now() + ASK_AGAIN_MS;
        this.#health.failed(error);
      })
      .finally(() => {
        this.#asking = false;
        this.#wake();
      });
  }
}
