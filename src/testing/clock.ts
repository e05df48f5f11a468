/** A source of the current time, in epoch milliseconds. */
export interface Clock {
  /** The current time, in epoch milliseconds. */
  now(): number;
}

/**
 * The simulator's time (`sim.clock`): the time of the clock it was given (default the
 * system's), plus what `advance` added. Everything the simulator dates runs on it:
 * settlement, validity and expiry, tokens, consent, the caps' windows.
 */
export interface SimulatorClock extends Clock {
  /** Moves the simulator's time forward by `ms` and settles whatever came due. */
  advance(ms: number): void;
}

/** `sim.clock`: an offset on a base clock, telling its listeners of every advance. */
export class OffsetClock implements SimulatorClock {
  readonly #base: Clock;
  readonly #listeners = new Set<(now: number) => void>();
  #offset = 0;

  constructor(base: Clock | undefined) {
    this.#base = base ?? { now: () => Date.now() };
  }

  /** The simulator's time: its base clock's, plus what `advance` added. */
  now(): number {
    return this.#base.now() + this.#offset;
  }

  advance(ms: number): void {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw new TypeError('clock.advance: ms must be a finite number >= 0');
    }
    this.#offset += ms;
    const now = this.now();
    for (const listener of this.#listeners) listener(now);
  }

  /** Runs `listener` after each advance (the ledger settles what came due). */
  onAdvance(listener: (now: number) => void): void {
    this.#listeners.add(listener);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SimulatorClock(${new Date(this.now()).toISOString()})`;
  }
}
