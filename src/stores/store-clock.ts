/** How many recent answers bound the offset (clocks drift slowly; a stall passes). */
const SAMPLES = 64;
/**
 * The spread a reservation is recorded with before any answer has bounded this process's
 * clock (its first): an answer showing a wider one makes that reservation unusable, and
 * one more is asked for, now bounded. A wrong guess costs one slot of the window, never
 * a call over it.
 */
export const FIRST_SPREAD_MS = 50;
/** Reservations asked for in a row before the store's clock is given up on (a clock stepping back and forth). */
const MAX_ASKS = 3;

/** What the offset (this process's clock minus the store's) is known to lie between. */
export interface ClockBounds {
  readonly low: number;
  readonly high: number;
  /**
   * How much later than its true moment one mapped now may be (`high - low`): the store
   * counts a reservation this much later than its moment, so that another process's
   * next reservation keeps its distance from where this call may really go.
   */
  readonly spreadMs: number;
}

/** A reservation's answer: its moment and the store's now, both on the store's clock. */
export interface StoreMoment {
  at: number;
  now: number;
}

/**
 * Maps moments on the store's clock onto this process's, never early and late by a
 * known bound. Each answer brackets the offset: the store read its clock after the ask
 * left (`sentAt - storeNow` is at most the offset) and before the answer came back
 * (`answeredAt - storeNow` at least). A moment is mapped with the smallest upper bound of
 * the recent answers (never early), so it is late by at most the bracket's width, the
 * spread: a process whose answers come slowly (a loaded event loop, a commit) maps its
 * moments later than one whose answers come quickly. The store counts each reservation at
 * its moment plus the spread its process sent with it, so that the next one, from any
 * process, keeps its distance from where this call may really go (docs/assumptions.md TR6).
 */
export class StoreClock {
  readonly #lows: number[] = [];
  readonly #highs: number[] = [];
  #next = 0;

  /** The bounds now: what a reservation asked for now is recorded with. */
  bounds(): ClockBounds {
    let low = Number.NEGATIVE_INFINITY;
    let high = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.#lows.length; i++) {
      low = Math.max(low, this.#lows[i] as number);
      high = Math.min(high, this.#highs[i] as number);
    }
    const spreadMs = this.#lows.length === 0 ? FIRST_SPREAD_MS : Math.max(0, high - low);
    return { low, high, spreadMs };
  }

  /**
   * Asks for a reservation (`ask(spreadMs)`, recorded at the store at its moment plus
   * `spreadMs`) and returns its moment on this process's clock. One whose mapping could be
   * later than the spread it was recorded with (the first answer slower than the guess)
   * is not used: its slot is lost, and another is asked for with the spread now known.
   */
  async reserve(ask: (spreadMs: number) => Promise<StoreMoment>): Promise<number> {
    for (let asked = 1; ; asked++) {
      const before = this.bounds();
      const sentAt = Date.now();
      const { at, now } = await ask(before.spreadMs);
      // Date.now() truncates: the answer came back before answeredAt + 1.
      const answeredAt = Date.now() + 1;
      const local = this.#toLocal(at, sentAt - now, answeredAt - now, before);
      if (local !== undefined) return local;
      if (asked >= MAX_ASKS) {
        throw new Error("the store's clock could not be bounded (it moved against this one's)");
      }
    }
  }

  #toLocal(at: number, low: number, high: number, before: ClockBounds): number | undefined {
    this.#add(low, high);
    const now = this.bounds();
    // Every bound seen holds: those when it was asked for, this answer's, and the latest.
    const upper = Math.min(before.high, high, now.high);
    const lower = Math.max(before.low, low, now.low);
    if (lower > upper) {
      // The clocks moved against each other (a step): only this answer is believed.
      this.#lows.length = 0;
      this.#highs.length = 0;
      this.#next = 0;
      this.#add(low, high);
      return undefined;
    }
    return upper - lower <= before.spreadMs ? at + upper : undefined;
  }

  #add(low: number, high: number): void {
    if (this.#lows.length < SAMPLES) {
      this.#lows.push(low);
      this.#highs.push(high);
    } else {
      this.#lows[this.#next] = low;
      this.#highs[this.#next] = high;
    }
    this.#next = (this.#next + 1) % SAMPLES;
  }
}

/**
 * Notes the pause a reservation's answer showed for `window` (docs/assumptions.md, JE4),
 * mapped onto this process's clock by the offset that mapped the reservation itself
 * (`at` on the store's clock came back as `local`): a pause still running is kept, an
 * ended one dropped.
 */
export function notePause(
  pausedUntil: Map<string, number>,
  window: string,
  reply: { at: number; pausedAt: number } | undefined,
  local: number,
): void {
  const until =
    reply === undefined || reply.pausedAt <= 0 ? 0 : reply.pausedAt + (local - reply.at);
  if (until > Date.now()) pausedUntil.set(window, until);
  else pausedUntil.delete(window);
}
