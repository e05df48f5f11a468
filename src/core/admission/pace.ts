import type { Answer } from '../port';
import { parseRetryAfter } from '../time';

/** How long a 429 without Retry-After pauses the class. */
const DEFAULT_PAUSE_MS = 1_000;
/** A learned rate grows by a fifth after this long without a refusal... */
const GROW_AFTER_MS = 10_000;
/** ...and is forgotten after this long without one. */
const FORGET_AFTER_MS = 60_000;
/** Answers remembered to learn the provider's rate from (a second's worth at most). */
const RECENT = 1_024;

/**
 * What the provider's answers teach one class of calls (the counted GETs): every call of
 * the class stops until a 429's (or a 503's) Retry-After has passed, and after a 429 the
 * class keeps under the rate the provider was seen to let through, growing it again
 * while nothing is refused.
 */
export class ProviderPace {
  #learnedRate: number | undefined;
  #refusedAt = 0;
  #grownAt = 0;
  #pausedUntil = 0;
  /** The earliest time the learned rate lets the next call go. */
  #nextAt = 0;
  readonly #letThrough = new Float64Array(RECENT);
  #count = 0;

  /** How many ms until the next call may go (0: now). */
  wait(now: number): number {
    const rate = this.#currentLearnedRate(now);
    const until =
      rate === undefined ? this.#pausedUntil : Math.max(this.#pausedUntil, this.#nextAt);
    return until > now ? Math.ceil(until - now) : 0;
  }

  /** A call went: the learned rate's spacing starts from it. */
  admitted(now: number): void {
    const rate = this.#learnedRate;
    if (rate !== undefined) this.#nextAt = Math.max(this.#nextAt, now) + 1_000 / rate;
  }

  /** Learns from an admitted call's answer (none: it got no answer). */
  answered(answer: Answer | undefined): void {
    if (answer === undefined) return;
    const now = Date.now();
    const { status } = answer;
    if (status === 429) {
      // The first refusal of an episode teaches the rate; the ones already in flight don't.
      if (now >= this.#pausedUntil) this.#learn(now);
      this.#pause(now + (retryAfterOf(answer, now) ?? DEFAULT_PAUSE_MS));
      return;
    }
    const retryAfterMs = status >= 500 ? retryAfterOf(answer, now) : undefined;
    if (retryAfterMs !== undefined) this.#pause(now + retryAfterMs);
    else this.#letThrough[this.#count++ % RECENT] = now;
  }

  /**
   * Keeps to 90% of what the provider let through in the last second, never less than
   * half the rate kept so far; with nothing let through lately there is nothing to learn
   * from, and only the pause applies (or the kept rate halves).
   */
  #learn(now: number): void {
    let recent = 0;
    for (let i = 0; i < Math.min(this.#count, RECENT); i++) {
      if (now - (this.#letThrough[i] as number) <= 1_000) recent++;
    }
    const previous = this.#currentLearnedRate(now);
    if (recent === 0 && previous === undefined) return;
    this.#learnedRate = Math.max(1, 0.9 * recent, (previous ?? 0) / 2);
    this.#refusedAt = now;
    this.#grownAt = now;
  }

  #currentLearnedRate(now: number): number | undefined {
    if (this.#learnedRate === undefined) return undefined;
    if (now - this.#refusedAt > FORGET_AFTER_MS) {
      this.#learnedRate = undefined;
      return undefined;
    }
    if (now - this.#grownAt > GROW_AFTER_MS) {
      this.#learnedRate *= 1.2;
      this.#grownAt = now;
    }
    return this.#learnedRate;
  }

  #pause(until: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
  }
}

function retryAfterOf(answer: Answer, now: number): number | undefined {
  return parseRetryAfter(answer.headers.get('retry-after'), now);
}
