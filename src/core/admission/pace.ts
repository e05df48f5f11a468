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
 * What the provider's answers teach one class of calls: every call of the class stops
 * until a 429's (or a 503's) Retry-After has passed, and after a 429 the class keeps
 * under the rate the provider was seen to let through, growing it again while nothing is
 * refused. The time the class is held so (a pause, the learned rate's spacing) is the
 * provider's, never a queued attempt's: `heldMs` measures it, and the admission stage
 * adds it to each queued attempt's deadline (docs/assumptions.md, OF1).
 */
export class ProviderPace {
  #learnedRate: number | undefined;
  #refusedAt = 0;
  #grownAt = 0;
  /** The end of the latest pause asked for (in force while ahead). */
  #pausedUntil = 0;
  /** The answer that asked for the pause in force (a 429, a 503 with Retry-After). */
  #pauseCause: Answer | undefined;
  /**
   * The pauses and the learned rate's spacing together, the time the provider held the
   * class: intervals joined where they overlap, summed up to any moment (a clock that runs
   * only then). The intervals before the current one, summed...
   */
  #heldBefore = 0;
  /** ...and the current (or last) one. */
  #heldFrom = 0;
  #heldUntil = 0;
  /** The earliest time the learned rate lets the next call go. */
  #nextAt = 0;
  /** When the answers let through came. */
  readonly #letThrough = new Float64Array(RECENT);
  #count = 0;
  /**
   * Told of each pause an answer of this process asked for, `ms` long from now (the shared
   * budget sets it, to record the pause in the store).
   */
  declare onPause: ((ms: number) => void) | undefined;

  /**
   * A pause another process's answer asked for (read from the shared budget): held as
   * this process's own (no call of the class goes before `until`, and the time is the
   * provider's, never a queued attempt's), without a cause to raise nor a rate to learn.
   */
  pausedElsewhere(now: number, until: number): void {
    if (until > this.#pausedUntil) this.#pause(now, until - now);
  }

  /** How many ms until the next call may go (0: now). */
  wait(now: number): number {
    const pausedUntil = this.#pausedUntil;
    const rate = this.#currentLearnedRate(now);
    const until = rate === undefined ? pausedUntil : Math.max(pausedUntil, this.#nextAt);
    return until > now ? Math.ceil(until - now) : 0;
  }

  /** A call went: the learned rate's spacing starts from it (the class held until then). */
  admitted(now: number): void {
    const rate = this.#learnedRate;
    if (rate === undefined) return;
    this.#nextAt = Math.max(this.#nextAt, now) + 1_000 / rate;
    this.#hold(now, this.#nextAt);
  }

  /** How long, in all, the provider has held the class up to `now`. */
  heldMs(now: number): number {
    return this.#heldBefore + Math.max(0, Math.min(now, this.#heldUntil) - this.#heldFrom);
  }

  /** When the current hold ends (at most `now`: none). */
  heldUntil(now: number): number {
    return Math.max(now, this.#heldUntil);
  }

  /** The answer that asked for a pause still in force longer than `maxMs` from `now`, if any. */
  pausedBeyond(now: number, maxMs: number): Answer | undefined {
    return this.#pausedUntil - now > maxMs ? this.#pauseCause : undefined;
  }

  /** Learns from an admitted call's answer (none: it got no answer). */
  answered(answer: Answer | undefined): void {
    if (answer === undefined) return;
    const now = Date.now();
    const { status } = answer;
    if (status === 429) {
      // The first refusal of an episode teaches the rate; the ones already in flight don't.
      if (now >= this.#pausedUntil) this.#learn(now);
      this.#pause(now, retryAfterOf(answer, now) ?? DEFAULT_PAUSE_MS, answer);
      return;
    }
    const retryAfterMs = status >= 500 ? retryAfterOf(answer, now) : undefined;
    if (retryAfterMs !== undefined) this.#pause(now, retryAfterMs, answer);
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

  /** The class held from `from` to `until` (joined to the current interval if they overlap). */
  #hold(from: number, until: number): void {
    if (until <= from) return;
    if (from > this.#heldUntil) {
      this.#heldBefore += this.#heldUntil - this.#heldFrom;
      this.#heldFrom = from;
      this.#heldUntil = until;
    } else this.#heldUntil = Math.max(this.#heldUntil, until);
  }

  /** `cause`: this process's answer that asked for it (none: another process's, not raised). */
  #pause(now: number, ms: number, cause?: Answer): void {
    const until = now + ms;
    if (until >= this.#pausedUntil) {
      this.#pauseCause = cause;
      this.#pausedUntil = until;
    }
    this.#hold(now, until);
    if (cause && ms > 0) this.onPause?.(ms);
  }
}

function retryAfterOf(answer: Answer, now: number): number | undefined {
  return parseRetryAfter(answer.headers.get('retry-after'), now);
}
