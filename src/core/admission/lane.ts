import { Waiter } from '../abortable';
import type { CallPlan } from '../call-plan';
import type { Answer } from '../port';
import type { RateBudget, SlidingWindowBudget } from './budget';
import type { ProviderPace } from './pace';

/**
 * An attempt queued at the admission stage: a Waiter (signal, settled once) resolving
 * with the attempt's deadline, moved later by the time the provider held its class
 * meanwhile (a pause, a learned rate: never spent from the attempt's timeout). It leaves
 * the queue by the earlier of that deadline and, for a wait's lookup, the wait's own
 * (`queuedUntil`, which no pause moves).
 */
export class Entry extends Waiter<number> {
  // Declared, set by the constructor: no class-field definitions to ship besides the sets.
  declare readonly stage: { rearm(): void };
  declare readonly plan: CallPlan<unknown>;
  declare readonly n: number;
  declare readonly seq: number;
  declare readonly attemptDeadline: number;
  declare readonly queuedUntil: number;
  /** The class's held time (`ProviderPace.heldMs`) when it was queued. */
  declare readonly heldAt: number;

  constructor(
    stage: { rearm(): void },
    plan: CallPlan<unknown>,
    n: number,
    seq: number,
    attemptDeadline: number,
    queuedUntil: number,
    heldAt: number,
  ) {
    super(plan.signal, Math.min(attemptDeadline, queuedUntil));
    Object.assign(this, { stage, plan, n, seq, attemptDeadline, queuedUntil, heldAt });
  }

  /** The attempt's deadline, later by `heldMs` minus what was held before it was queued. */
  attemptDeadlineAt(heldMs: number): number {
    return this.attemptDeadline + Math.max(0, heldMs - this.heldAt);
  }

  /** When it must leave the queue, the class having been held `heldMs` in all. */
  expiresAt(heldMs: number): number {
    return Math.min(this.attemptDeadlineAt(heldMs), this.queuedUntil);
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
  declare readonly option: string | undefined;
  declare readonly pace: ProviderPace | undefined;
  /** Whether a budget or the provider's pace holds the class back (`ready` reads the clock). */
  declare readonly paced: boolean;
  readonly #budget: RateBudget | undefined;
  readonly #maxInFlight: number;
  /** The class lane a call's own lane also takes from (its budget, pace and calls in flight). */
  declare readonly parent: Lane | undefined;
  readonly #own: OwnBudget | undefined;
  inFlight = 0;
  /** The stage's pass in which this lane's head was found unable to go (./admission.ts). */
  blockedIn = -1;
  #queue: Entry[] = [];
  #head = 0;
  #sweepAt = 0;
  /** The earliest deadline among queued entries (an early guess is harmless: a sweep corrects it). */
  earliestDeadline = Infinity;

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
    this.#maxInFlight = settings.maxInFlight ?? Infinity;
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
    if (this.inFlight >= this.#maxInFlight) return Infinity;
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
      this.earliestDeadline = Infinity;
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

  /** Rejects every queued entry, `reason(entry)` its reason (a pause too long to wait out). */
  rejectAll(reason: (entry: Entry) => unknown): void {
    for (let i = this.#head; i < this.#queue.length; i++) {
      const entry = this.#queue[i] as Entry;
      if (!entry.done) entry.reject(reason(entry));
    }
  }

  /** The class's held time so far (0: no provider pace). */
  heldMs(now: number): number {
    return this.pace?.heldMs(now) ?? 0;
  }

  /** The earliest moment a sweep may drop expired entries (infinite: none queued). */
  sweepAt(): number {
    if (this.head() === undefined) return Infinity;
    return Math.max(this.earliestDeadline, this.#sweepAt);
  }

  /**
   * Rejects every queued entry whose deadline has passed, `expired(entry, lane)` its
   * reason. A deadline is the attempt's own plus the time the provider held the class
   * since it was queued: while a hold lasts, no attempt's deadline comes nearer, so the
   * next sweep is due no earlier than the hold's end plus what was left.
   */
  sweep(now: number, expired: (entry: Entry, lane: Lane) => unknown): void {
    if (this.earliestDeadline > now || now < this.#sweepAt) return;
    this.#sweepAt = now + SWEEP_MS;
    const heldMs = this.heldMs(now);
    const holdLeft = (this.pace?.heldUntil(now) ?? now) - now;
    let earliest = Infinity;
    for (let i = this.#head; i < this.#queue.length; i++) {
      const entry = this.#queue[i] as Entry;
      if (entry.done) continue;
      const at = entry.expiresAt(heldMs);
      if (at <= now) entry.reject(expired(entry, this));
      else earliest = Math.min(earliest, entry.expiresAt(heldMs + holdLeft));
    }
    this.earliestDeadline = earliest;
  }
}
