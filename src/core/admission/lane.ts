import { Waiter } from '../abortable';
import type { CallPlan } from '../call-plan';
import type { Answer } from '../port';
import type { RateBudget, SlidingWindowBudget } from './budget';
import type { ProviderPace } from './pace';

/**
 * An attempt queued at the admission stage: a Waiter (signal, deadline, settled once)
 * resolving with the attempt's deadline. Its own deadline is the earlier of the attempt's
 * and, for a wait's lookup, the wait's (`queuedUntil`).
 */
export class Entry extends Waiter<number> {
  constructor(
    readonly stage: { rearm(): void },
    readonly plan: CallPlan<unknown>,
    readonly n: number,
    readonly seq: number,
    readonly attemptDeadline: number,
    deadline: number,
  ) {
    super(plan.signal, deadline);
  }

  /** An aborted entry must not keep the stage's timer (or the process) alive. */
  protected override aborted(): void {
    this.stage.rearm();
  }
}

/** What holds a class of calls back besides the client's request slots. */
export interface LaneSettings {
  /** The client option naming the budget, told in a queue timeout's message when set. */
  option?: string | undefined;
  budget?: RateBudget | undefined;
  /** Learns from the answers (a 429 slows the whole class). */
  pace?: ProviderPace | undefined;
  /** Calls of this class in flight at once (default: as many as there are slots). */
  maxInFlight?: number | undefined;
}

/** A budget that can be asked without taking (a call's own: see ./call-budget.ts). */
export type OwnBudget = Pick<SlidingWindowBudget, 'wait' | 'note'>;

/** Deadlines of queued entries are checked at most this often. */
const SWEEP_MS = 50;

/** One class of calls at the admission stage: its queue, first come first served. */
export class Lane {
  readonly option: string | undefined;
  readonly pace: ProviderPace | undefined;
  /** Whether a budget or the provider's pace holds the class back (`ready` reads the clock). */
  readonly paced: boolean;
  readonly #budget: RateBudget | undefined;
  readonly #maxInFlight: number;
  /** The class lane a call's own lane also takes from (its budget, pace and calls in flight). */
  readonly parent: Lane | undefined;
  readonly #own: OwnBudget | undefined;
  inFlight = 0;
  /** The stage's pass in which this lane's head was found unable to go (./admission.ts). */
  blockedIn = -1;
  #queue: Entry[] = [];
  #head = 0;
  #sweepAt = 0;
  /** The earliest deadline among queued entries (an early guess is harmless: a sweep corrects it). */
  earliestDeadline = Number.POSITIVE_INFINITY;

  constructor(settings: LaneSettings, parent?: Lane, own?: OwnBudget) {
    this.option = settings.budget === undefined && own === undefined ? undefined : settings.option;
    this.pace = settings.pace ?? parent?.pace;
    this.#budget = settings.budget;
    this.parent = parent;
    this.#own = own;
    this.paced =
      settings.pace !== undefined ||
      settings.budget !== undefined ||
      parent?.paced === true ||
      own !== undefined;
    this.#maxInFlight = settings.maxInFlight ?? Number.POSITIVE_INFINITY;
  }

  /** A call of this lane goes (counted in its class too). */
  enter(): void {
    this.inFlight++;
    if (this.parent !== undefined) this.parent.inFlight++;
  }

  /** A call of this lane ended; its answer teaches the class's pace. */
  leave(answer: Answer | undefined): void {
    this.inFlight--;
    if (this.parent !== undefined) this.parent.inFlight--;
    this.pace?.answered(answer);
  }

  /** Nothing queued and nothing in flight: a call's own lane may be dropped. */
  get idle(): boolean {
    return this.inFlight === 0 && this.head() === undefined;
  }

  /**
   * 0 when the next call of this class may go now (its share of the budget then taken),
   * else how many ms to wait (infinite: until one of its calls in flight ends). `now` is
   * read only when the class is `paced`.
   */
  ready(now: number): number {
    if (this.inFlight >= this.#maxInFlight) return Number.POSITIVE_INFINITY;
    const { parent } = this;
    if (parent !== undefined) {
      // The call's own budget asked first without taking, then the class's (which takes).
      const own = this.#own?.wait(now) ?? 0;
      if (own > 0) return own;
      const wait = parent.ready(now);
      if (wait > 0) return wait;
      this.#own?.note(now);
      return 0;
    }
    if (!this.paced) return 0;
    const pace = this.pace;
    if (pace !== undefined) {
      const wait = pace.wait(now);
      if (wait > 0) return wait;
    }
    if (this.#budget !== undefined) {
      const wait = this.#budget.take(now);
      if (wait > 0) return wait;
    }
    pace?.admitted(now);
    return 0;
  }

  /** The first live queued entry, dropping those already settled (aborted, expired). */
  head(): Entry | undefined {
    while (this.#head < this.#queue.length) {
      const entry = this.#queue[this.#head] as Entry;
      if (!entry.done) return entry;
      this.#queue[this.#head++] = undefined as unknown as Entry;
    }
    if (this.#head > 0) {
      this.#queue.length = 0;
      this.#head = 0;
      this.earliestDeadline = Number.POSITIVE_INFINITY;
    }
    return undefined;
  }

  /** Takes the head (after `head()` returned it). */
  shift(): void {
    this.#queue[this.#head++] = undefined as unknown as Entry;
    if (this.#head > 1_024 && this.#head * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#head);
      this.#head = 0;
    }
  }

  push(entry: Entry): void {
    this.#queue.push(entry);
    if (entry.deadline < this.earliestDeadline) this.earliestDeadline = entry.deadline;
  }

  get queued(): boolean {
    return this.#head < this.#queue.length;
  }

  /** The earliest moment a sweep may drop expired entries (infinite: none queued). */
  sweepAt(): number {
    if (this.head() === undefined) return Number.POSITIVE_INFINITY;
    return Math.max(this.earliestDeadline, this.#sweepAt);
  }

  /** Rejects every queued entry whose deadline has passed, `expired(entry, lane)` its reason. */
  sweep(now: number, expired: (entry: Entry, lane: Lane) => unknown): void {
    if (this.earliestDeadline > now || now < this.#sweepAt) return;
    this.#sweepAt = now + SWEEP_MS;
    let earliest = Number.POSITIVE_INFINITY;
    for (let i = this.#head; i < this.#queue.length; i++) {
      const entry = this.#queue[i] as Entry;
      if (entry.done) continue;
      if (entry.deadline > now) earliest = Math.min(earliest, entry.deadline);
      else entry.reject(expired(entry, this));
    }
    this.earliestDeadline = earliest;
  }
}
