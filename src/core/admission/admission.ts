import type { RateClass } from '../../contracts/rate-budget';
import type { CallPlan } from '../call-plan';
import type { Operation } from '../operation';
import type { Answer } from '../port';
import { type RateBudget, SlidingWindowBudget } from './budget';
import { callBudgetOf } from './call-budget';
import { Entry, Lane, type OwnBudget } from './lane';
import { ProviderPace } from './pace';
import { ReservedBudget, type SharedBudgetSettings } from './shared-budget';

export interface AdmissionSettings {
  /** Requests in flight at once, every class together (`maxConcurrency`). */
  maxConcurrency: number;
  /** Counted GETs per second (`lookupRate`); undefined: no fixed budget. */
  lookupRate: number | undefined;
  /** Creating calls per second (`createRate`); undefined: unlimited. */
  createRate: number | undefined;
  /** Counted GETs in flight at once: they never take every slot from money-moving calls. */
  maxLookupsInFlight: number;
  /** `rateBudget`: the rates' budgets shared by every process (undefined: this process's own). */
  shared?: SharedBudgetSettings | undefined;
  /**
   * A pause the provider asks for longer than this (`maxRetryAfterMs`) is not waited out:
   * the calls it holds fail with the answer that asked for it.
   */
  maxPauseMs?: number | undefined;
}

/** The errors of attempts that leave the queue without being sent. */
export interface QueueErrors {
  /** Its deadline passed while it waited for a slot or a rate (`option`: which budget, if any). */
  timedOut(plan: CallPlan<unknown>, n: number, option: string | undefined): unknown;
  /** The provider asked its class to pause longer than `maxPauseMs`, by `answer`. */
  pausedTooLong(plan: CallPlan<unknown>, n: number, answer: Answer): unknown;
}

/** A wait's lookup still queued when the wait's deadline passed (the poller throws WaitTimeoutError). */
export class QueuedPastDeadline extends Error {}

/**
 * The one stage every attempt of every call passes before it is sent (the token request
 * aside: calls wait for it). One queue per class, first come first served across them; an
 * attempt goes when a request slot is free and its class lets it (the class's calls in
 * flight, the provider's pause and learned rate, the class's budget per second). Queued
 * attempts keep their abort signal and their deadline. One timer for the whole stage.
 */
export class Admission {
  readonly #max: number;
  #active = 0;
  #seq = 0;
  /** The class lanes, then the lanes of calls with a budget of their own (a batch's). */
  readonly #lanes: Lane[];
  readonly #create: Lane;
  readonly #lookup: Lane;
  readonly #other: Lane;
  /** The lane of each call budget in use (dropped once idle). */
  readonly #budgeted = new Map<OwnBudget, Lane>();
  #pass = 0;
  /** A queued entry's error once its deadline passed: the wait's, or its attempt's. */
  readonly #expire: (entry: Entry, lane: Lane) => unknown;
  readonly #errors: QueueErrors;
  readonly #maxPauseMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  constructor(settings: AdmissionSettings, errors: QueueErrors) {
    this.#max = settings.maxConcurrency;
    this.#errors = errors;
    this.#maxPauseMs = settings.maxPauseMs ?? Infinity;
    const { shared } = settings;
    const budgetOf = (
      kind: RateClass,
      rate: number | undefined,
      pace: ProviderPace,
    ): RateBudget | undefined => {
      if (rate === undefined) return undefined;
      if (shared === undefined) return new SlidingWindowBudget(rate);
      return new ReservedBudget(shared, kind, rate, () => this.#pump(), pace);
    };
    // A 429 (or a 503's Retry-After) on a creating call pauses every creating call of the
    // client, a batch's too: one pause, as for the counted GETs (docs/assumptions.md, PC2);
    // with a shared `rateBudget`, every process's (JE4).
    const createPace = new ProviderPace();
    const create = new Lane({
      option: 'createRate',
      budget: budgetOf('create', settings.createRate, createPace),
      pace: createPace,
    });
    const lookupPace = new ProviderPace();
    const lookup = new Lane({
      option: 'lookupRate',
      budget: budgetOf('lookup', settings.lookupRate, lookupPace),
      pace: lookupPace,
      maxInFlight: settings.maxLookupsInFlight,
    });
    const other = new Lane({});
    this.#create = create;
    this.#lookup = lookup;
    this.#other = other;
    this.#lanes = [create, lookup, other];
    this.#expire = (entry, lane) =>
      entry.queuedUntil < entry.attemptDeadlineAt(lane.heldMs(Date.now()))
        ? new QueuedPastDeadline('the wait deadline passed while queued')
        : errors.timedOut(entry.plan, entry.n, lane.option);
  }

  /**
   * The lane of an operation's class (docs/assumptions.md, G12): `create`, a creating call
   * (it sends a reference id); `lookup`, every GET (the provider counts them all against
   * one cap); `other`, non-creating POST, PUT, DELETE: unpaced.
   */
  lane(op: Operation<unknown, unknown>, options?: object): Lane {
    if (op.creates) {
      const own = callBudgetOf(options);
      return own === undefined ? this.#create : this.#budgetedLane(own);
    }
    return op.method === 'GET' ? this.#lookup : this.#other;
  }

  /**
   * The lane of creating calls carrying a budget of their own (./call-budget.ts): its own
   * queue, so that a batch held back by its rate holds no other call back; it takes from
   * its budget and from the class's (rate, shared budget, pause after a 429).
   */
  #budgetedLane(own: OwnBudget): Lane {
    let lane = this.#budgeted.get(own);
    if (lane === undefined) {
      lane = new Lane({ option: 'createRate' }, this.#create, own);
      this.#budgeted.set(own, lane);
      this.#lanes.push(lane);
    }
    return lane;
  }

  /** Drops the lanes of call budgets no longer in use. */
  #dropIdle(): void {
    if (this.#budgeted.size === 0) return;
    for (const [budget, lane] of this.#budgeted) {
      if (!lane.idle) continue;
      this.#budgeted.delete(budget);
      this.#lanes.splice(this.#lanes.indexOf(lane), 1);
    }
  }

  /**
   * Admits an attempt now (undefined) or queues it: the promise resolves, with the
   * attempt's deadline moved by the time the provider held its class meanwhile, once it
   * is admitted; it rejects with the signal's reason on abort, with the expired error
   * when that deadline (or the wait's `queuedUntil`) passes first, or with the answer
   * that asked for a pause too long to wait out. Call `release` once admitted.
   */
  admit(
    lane: Lane,
    plan: CallPlan<unknown>,
    n: number,
    deadline: number,
    queuedUntil?: number,
  ): Promise<number> | undefined {
    if (
      this.#active < this.#max &&
      !lane.queued &&
      !lane.parent?.queued &&
      lane.ready(lane.paced ? Date.now() : 0) === 0
    ) {
      this.#active++;
      lane.enter();
      return undefined;
    }
    const now = Date.now();
    const until = queuedUntil ?? Infinity;
    const entry = new Entry(this, plan, n, this.#seq++, deadline, until, lane.heldMs(now));
    const tooLong = lane.pace?.pausedBeyond(now, this.#maxPauseMs);
    if (tooLong !== undefined) {
      entry.reject(this.#errors.pausedTooLong(plan, n, tooLong));
      return entry.promise;
    }
    if (entry.listen()) {
      lane.push(entry);
      this.#pump();
    }
    return entry.promise;
  }

  /** Gives the slot back; a counted GET's answer teaches its class (a 429 slows them all). */
  release(lane: Lane, answer: Answer | undefined): void {
    this.#active--;
    lane.leave(answer);
    if (this.#lanes.some((l) => l.queued)) this.#pump();
    else if (lane.parent !== undefined) this.#dropIdle();
  }

  /** Admits what may go now and sets the timer again (a queued entry was aborted). */
  rearm(): void {
    this.#pump();
  }

  /** Admits what may go now, first come first served across classes; drops what expired. */
  #pump(): void {
    const now = Date.now();
    let wakeAt = Infinity;
    for (const lane of this.#lanes) {
      lane.sweep(now, this.#expire);
      const tooLong = lane.queued ? lane.pace?.pausedBeyond(now, this.#maxPauseMs) : undefined;
      if (tooLong !== undefined) {
        lane.rejectAll((entry) => this.#errors.pausedTooLong(entry.plan, entry.n, tooLong));
      }
    }
    const pass = this.#pass++; // a lane whose head cannot go now is marked blocked in this pass
    while (this.#active < this.#max) {
      let pick: Lane | undefined;
      let first: Entry | undefined;
      for (const lane of this.#lanes) {
        if (lane.blockedIn === pass) continue;
        const head = lane.head();
        if (head !== undefined && (first === undefined || head.seq < first.seq)) {
          pick = lane;
          first = head;
        }
      }
      if (first === undefined || pick === undefined) break;
      const wait = pick.ready(now);
      if (wait > 0) {
        pick.blockedIn = pass;
        wakeAt = Math.min(wakeAt, now + wait);
        continue;
      }
      pick.shift();
      this.#active++;
      pick.enter();
      first.resolve(first.attemptDeadlineAt(pick.heldMs(now)));
    }
    this.#dropIdle();
    this.#arm(now, wakeAt);
  }

  /** One timer, for the earlier of: a class's next chance to go, and the next deadline. */
  #arm(now: number, wakeAt: number): void {
    let at = wakeAt;
    for (const lane of this.#lanes) at = Math.min(at, lane.sweepAt());
    if (at === Infinity) {
      this.#clearTimer();
      return;
    }
    at = Math.max(at, now + 1);
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    this.#clearTimer();
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      this.#pump();
    }, at - now);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }
}
