import { parseRetryAfter } from '../core/time';

export interface LookupGateSettings {
  /** Lookups per second for the whole client (`lookupRate`); undefined: no fixed budget. */
  rate: number | undefined;
  /** Lookups in flight at once: they never take every slot from money-moving calls. */
  maxInFlight: number;
}

/** A wait's lookup still queued when its deadline passed (the poller throws WaitTimeoutError). */
export class QueuedPastDeadline extends Error {}

/** How long a 429 without Retry-After pauses lookups. */
const DEFAULT_PAUSE_MS = 1_000;
/** A learned rate grows by a fifth after this long without a refusal... */
const GROW_AFTER_MS = 10_000;
/** ...and is forgotten after this long without one. */
const FORGET_AFTER_MS = 60_000;
/** Deadlines of queued lookups are checked at most this often. */
const SWEEP_MS = 50;
/** Successes remembered to learn the provider's rate from (a second's worth at most). */
const RECENT = 1_024;

interface Entry {
  start(): void;
  reject(reason: unknown): void;
  signal: AbortSignal | undefined;
  deadline: number | undefined;
  done: boolean;
}

/**
 * One gate for every status lookup of a client (waits, `status()`, `getX`, callback
 * confirmations). It keeps a fixed budget (`lookupRate`), stops every lookup until a
 * 429's (or a 503's) Retry-After has passed, and after a 429 keeps under the rate the
 * provider was seen to allow, growing it again while nothing is refused. Queued lookups
 * keep their abort signal and their wait's deadline.
 */
export class LookupGate {
  readonly #fixedRate: number | undefined;
  readonly #maxInFlight: number;
  #learnedRate: number | undefined;
  #refusedAt = 0;
  #grownAt = 0;
  #pausedUntil = 0;
  /** The earliest time the rate lets the next lookup go. */
  #nextAt = 0;
  #inFlight = 0;
  #queue: Entry[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #sweepAt = 0;
  /** The earliest deadline among queued lookups (an early guess is harmless: a sweep corrects it). */
  #earliestDeadline = Number.POSITIVE_INFINITY;
  readonly #successes = new Float64Array(RECENT);
  #successCount = 0;

  constructor(settings: LookupGateSettings) {
    this.#fixedRate = settings.rate;
    this.#maxInFlight = settings.maxInFlight;
  }

  /** Lookups per second the gate keeps to now; undefined when unbounded. */
  get rate(): number | undefined {
    const learned = this.#currentLearnedRate(Date.now());
    if (learned === undefined) return this.#fixedRate;
    return this.#fixedRate === undefined ? learned : Math.min(learned, this.#fixedRate);
  }

  /**
   * Runs `lookup` once the gate lets it go, and learns from its answer. Rejects with the
   * signal's reason on abort, and with QueuedPastDeadline when `deadline` passes first.
   */
  run<T>(lookup: () => Promise<T>, signal?: AbortSignal, deadline?: number): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#head === this.#queue.length && this.#admissible(Date.now())) {
      return this.#start(lookup);
    }
    return new Promise<T>((resolve, reject) => {
      const entry: Entry & { handleEvent(): void } = {
        start: () => {
          signal?.removeEventListener('abort', entry);
          this.#start(lookup).then(resolve, reject);
        },
        reject,
        signal,
        deadline,
        done: false,
        handleEvent: () => this.#drop(entry, signal?.reason),
      };
      signal?.addEventListener('abort', entry, { once: true });
      this.#queue.push(entry);
      if (deadline !== undefined) {
        this.#earliestDeadline = Math.min(this.#earliestDeadline, deadline);
      }
      this.#pump();
    });
  }

  /** True when a lookup may start now (and takes its share of the rate if so). */
  #admissible(now: number): boolean {
    if (this.#inFlight >= this.#maxInFlight || now < this.#pausedUntil) return false;
    const rate = this.rate;
    if (rate === undefined) return true;
    if (now < this.#nextAt) return false;
    // Evenly spaced and never early: the provider counts per second, whatever the moment
    // (a timer firing late keeps the client a little under its rate, never over it).
    this.#nextAt = Math.max(this.#nextAt, now) + 1_000 / rate;
    return true;
  }

  #start<T>(lookup: () => Promise<T>): Promise<T> {
    this.#inFlight++;
    let running: Promise<T>;
    try {
      running = lookup();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.then(
      (value) => {
        this.#succeeded();
        return value;
      },
      (error: unknown) => {
        this.#failed(error);
        throw error;
      },
    );
  }

  #succeeded(): void {
    this.#successes[this.#successCount++ % RECENT] = Date.now();
    this.#release();
  }

  #failed(error: unknown): void {
    const { status, retryAfterMs } = rateHint(error);
    const now = Date.now();
    if (status === 429) {
      // The first refusal of an episode teaches the rate; the ones already in flight don't.
      if (now >= this.#pausedUntil) this.#learn(now);
      this.#pause(now + (retryAfterMs ?? DEFAULT_PAUSE_MS));
    } else if (retryAfterMs !== undefined && status !== undefined && status >= 500) {
      this.#pause(now + retryAfterMs);
    }
    this.#release();
  }

  /**
   * Keeps to 90% of what the provider let through in the last second, never less than
   * half the rate kept so far; with nothing let through lately there is nothing to learn
   * from, and only the pause applies (or the kept rate halves).
   */
  #learn(now: number): void {
    let recent = 0;
    for (let i = 0; i < Math.min(this.#successCount, RECENT); i++) {
      if (now - (this.#successes[i] as number) <= 1_000) recent++;
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

  #release(): void {
    this.#inFlight--;
    this.#pump();
  }

  #drop(entry: Entry, reason: unknown, pump = true): void {
    if (entry.done) return;
    entry.done = true;
    entry.signal?.removeEventListener('abort', entry as Entry & { handleEvent(): void });
    entry.reject(reason);
    if (pump) this.#pump();
  }

  /** Starts what may start, drops what expired, and sets one timer for the next change. */
  #pump(): void {
    const now = Date.now();
    if (this.#earliestDeadline <= now && now >= this.#sweepAt) this.#sweep(now);
    while (this.#head < this.#queue.length) {
      const entry = this.#queue[this.#head] as Entry;
      if (entry.done) {
        this.#head++;
        continue;
      }
      if (!this.#admissible(now)) break;
      entry.done = true;
      this.#head++;
      entry.start();
    }
    if (this.#head > 1_024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    this.#arm(now);
  }

  /** Rejects every queued lookup whose deadline has passed; notes the next deadline. */
  #sweep(now: number): void {
    this.#sweepAt = now + SWEEP_MS;
    let earliest = Number.POSITIVE_INFINITY;
    for (let i = this.#head; i < this.#queue.length; i++) {
      const entry = this.#queue[i] as Entry;
      if (entry.done || entry.deadline === undefined) continue;
      if (entry.deadline > now) earliest = Math.min(earliest, entry.deadline);
      else this.#drop(entry, new QueuedPastDeadline('deadline passed while queued'), false);
    }
    this.#earliestDeadline = earliest;
  }

  /**
   * One timer, for the earlier of: the moment the pause or the rate lets the next lookup
   * go (a finishing lookup frees a slot and pumps by itself), and the next deadline.
   */
  #arm(now: number): void {
    if (this.#head === this.#queue.length) {
      this.#earliestDeadline = Number.POSITIVE_INFINITY;
      this.#clearTimer();
      return;
    }
    let at = Number.POSITIVE_INFINITY;
    if (this.#inFlight < this.#maxInFlight) {
      const gateAt = Math.max(this.#pausedUntil, this.rate === undefined ? 0 : this.#nextAt);
      at = Math.max(gateAt, now + 1);
    }
    if (this.#earliestDeadline !== Number.POSITIVE_INFINITY) {
      at = Math.min(at, Math.max(this.#earliestDeadline, this.#sweepAt, now + 1));
    }
    if (at === Number.POSITIVE_INFINITY) {
      this.#clearTimer();
      return;
    }
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    this.#clearTimer();
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#pump();
    }, at - now);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }
}

/** The status and Retry-After of a failed lookup, whichever error class carries them. */
export function rateHint(error: unknown): {
  status: number | undefined;
  retryAfterMs: number | undefined;
} {
  const e = error as { status?: unknown; retryAfterMs?: unknown; headers?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : undefined;
  if (typeof e?.retryAfterMs === 'number') return { status, retryAfterMs: e.retryAfterMs };
  const headers = e?.headers as Record<string, string> | undefined;
  const header = typeof headers === 'object' && headers ? headers['retry-after'] : undefined;
  return { status, retryAfterMs: parseRetryAfter(header ?? null) };
}
