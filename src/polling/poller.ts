import { spreadJitter } from '../core/time';
import { isTransient } from '../core/transient';
import { isNotFoundError, isRateLimitError, WaitTimeoutError } from '../errors';
import { isFinal, type Reason, type StatusLike } from '../schemas/common';
import { Scheduler } from './scheduler';

export interface WaitOptions<R = unknown> {
  /** Deadline of this wait; default `polling.timeoutMs`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Called on every change of status the wait observes, the first one and the final
   * one included (whether a lookup or a confirmed callback brought it). A lookup that
   * repeats the previous status does not call it again.
   */
  onStatus?(result: R): void;
}

/** A final result: SUCCESSFUL, or FAILED with its reason. */
export type Final<R> = R & ({ status: 'SUCCESSFUL' } | { status: 'FAILED'; reason: Reason });

export interface PollSchedule {
  initialDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
}

export interface WaitRequest<R> {
  operation: string;
  referenceId: string;
  lookup(signal: AbortSignal | undefined): Promise<R>;
  /** Set when the operation was just accepted: wait before the first lookup, tolerate 404 for a while. */
  acceptedAt?: number;
}

/** How long after acceptance a 404 means "not visible yet" rather than "does not exist". */
const NOT_FOUND_GRACE_MS = 30_000;

/**
 * The poller behind every `wait()`: backoff with jitter between lookups, a deadline,
 * abort, transient lookup failures ridden out, and early wake-ups (callbacks).
 */
export class Poller {
  readonly #scheduler = new Scheduler();
  readonly #waiting = new Map<string, Set<(result?: StatusLike) => void>>();
  readonly #schedule: PollSchedule;

  constructor(schedule: PollSchedule) {
    this.#schedule = schedule;
  }

  /**
   * Ends the sleep of every wait on this reference id (a callback said it changed). With a
   * result confirmed by a lookup, a final one settles those waits without another lookup.
   */
  wake(referenceId: string, confirmed?: StatusLike): number {
    const wakers = this.#waiting.get(referenceId.toLowerCase());
    for (const wake of wakers ?? []) wake(confirmed);
    return wakers?.size ?? 0;
  }

  /** Sleeps on the shared timer (e.g. between consent token polls). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#scheduler.sleep(ms, signal).promise;
  }

  async wait<R extends StatusLike>(
    request: WaitRequest<R>,
    options: WaitOptions<R> = {},
  ): Promise<Final<R>> {
    const { initialDelayMs, maxDelayMs } = this.#schedule;
    const timeoutMs = options.timeoutMs ?? this.#schedule.timeoutMs;
    const started = Date.now();
    const deadline = started + timeoutMs;
    const graceUntil =
      request.acceptedAt === undefined ? 0 : request.acceptedAt + NOT_FOUND_GRACE_MS;
    let delay = request.acceptedAt === undefined ? 0 : initialDelayMs;
    let lastStatus: R | undefined;
    const observe = (result: R) => {
      if (result.status !== lastStatus?.status) options.onStatus?.(result);
      lastStatus = result;
    };
    const settle = (result: R) => {
      const final = finalise(result);
      observe(final);
      return final;
    };

    for (let polls = 0; ; polls++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 && polls > 0) {
        throw new WaitTimeoutError({ ...request, lastStatus, timeoutMs });
      }
      let next = Math.min(maxDelayMs, Math.max(initialDelayMs, delay * 2));
      const delivered =
        delay > 0
          ? await this.#sleep(request.referenceId, Math.min(delay, remaining), options.signal)
          : undefined;
      if (delivered && isFinal(delivered)) return settle(delivered as R);
      try {
        const result = await request.lookup(options.signal);
        if (isFinal(result)) return settle(result);
        observe(result);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        const transient = isTransient(error) || (isNotFoundError(error) && Date.now() < graceUntil);
        if (!transient) throw error;
        if (isRateLimitError(error) && error.retryAfterMs !== undefined) {
          next = Math.max(next, error.retryAfterMs);
        }
      }
      delay = spreadJitter(next);
    }
  }

  async #sleep(
    referenceId: string,
    ms: number,
    signal: AbortSignal | undefined,
  ): Promise<StatusLike | undefined> {
    const { promise, wake } = this.#scheduler.sleep(ms, signal);
    let delivered: StatusLike | undefined;
    const waker = (result?: StatusLike) => {
      delivered = result;
      wake();
    };
    const key = referenceId.toLowerCase();
    const wakers = this.#waiting.get(key) ?? new Set();
    this.#waiting.set(key, wakers);
    wakers.add(waker);
    try {
      await promise;
      return delivered;
    } finally {
      wakers.delete(waker);
      if (wakers.size === 0) this.#waiting.delete(key);
    }
  }
}

/** A FAILED result always carries a reason, even when the service sent none. */
function finalise<R extends StatusLike>(result: R): Final<R> {
  if (result.status === 'FAILED' && !result.reason) {
    return {
      ...result,
      reason: { code: 'UNKNOWN', message: 'the service gave no reason' },
    } as Final<R>;
  }
  return result as Final<R>;
}
