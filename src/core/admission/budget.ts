/**
 * A client's budget of calls of one class per second (`lookupRate`, `createRate`). The
 * admission stage asks it once per attempt, just before the attempt may be sent; a
 * budget shared between processes (through Redis) can implement the same interface.
 */
export interface RateBudget {
  /**
   * Takes one call's share at `now` (epoch ms) and returns 0, or takes nothing and
   * returns how many ms to wait before asking again.
   */
  take(now: number): number;
}

/** The window the provider counts in. */
const WINDOW_MS = 1_000;
/**
 * How much longer than the window the oldest of the last N admissions must lie behind: a
 * request's way from here to the provider varies by a few ms, and that must not put N + 1
 * of them into one of its seconds (docs/assumptions.md, G7).
 */
export const SAFETY_MARGIN_MS = 5;
/**
 * How far behind its schedule the spacing may catch up: a timer fires a ms or two late,
 * and without this every late timer would be lost for good (a rate of 90 kept about 80 a
 * second: bench "batch", 2,000 rows under a 100/s cap). After a longer gap (idle, a
 * pause) the schedule starts again from now: no burst. The ring still holds the window.
 */
const CATCH_UP_MS = 25;

/**
 * `rate` calls a second, evenly spaced on a schedule (a call whose timer fired late is
 * followed sooner, up to CATCH_UP_MS, so the rate is kept on average) and never more than
 * `rate` (its whole part, at least 1) in any sliding second: a ring holds the last
 * admissions' times, and the next waits until the oldest is a window (and the margin) old.
 */
export class SlidingWindowBudget implements RateBudget {
  readonly #spacingMs: number;
  readonly #ring: Float64Array;
  /** The ring's oldest entry, overwritten by the next admission. */
  #oldest = 0;
  /** The earliest time the spacing lets the next call go. */
  #nextAt = 0;

  constructor(rate: number) {
    this.#spacingMs = WINDOW_MS / rate;
    this.#ring = new Float64Array(Math.max(1, Math.floor(rate))).fill(-Infinity);
  }

  take(now: number): number {
    const wait = this.wait(now);
    if (wait > 0) return wait;
    this.note(now);
    return 0;
  }

  /** How many ms until the next call may go (0: now), taking nothing. */
  wait(now: number): number {
    const oldest = this.#ring[this.#oldest] as number;
    const wait = Math.max(this.#nextAt - now, oldest + WINDOW_MS + SAFETY_MARGIN_MS - now);
    return wait > 0 ? Math.ceil(wait) : 0;
  }

  /** Counts a call that went at `now` by another budget's leave (a shared one's). */
  note(now: number): void {
    this.#ring[this.#oldest] = now;
    this.#oldest = (this.#oldest + 1) % this.#ring.length;
    const onSchedule = now - this.#nextAt <= CATCH_UP_MS ? this.#nextAt : now;
    this.#nextAt = Math.max(onSchedule, now - this.#spacingMs) + this.#spacingMs;
  }
}
