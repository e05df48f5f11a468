import type { Telemetry, WaitTrace } from '../contracts/telemetry';
import type { Final, WaitOptions } from '../contracts/wait';
import { QueuedPastDeadline } from '../core/admission/admission';
import { referenceKey } from '../core/reference-id';
import { retryDecision } from '../core/retry-decision';
import { spreadJitter } from '../core/time';
import { isNotFoundError, WaitTimeoutError } from '../errors';
import { isFinal, type StatusLike } from '../schemas/common';
import { Scheduler, type Sleep } from './scheduler';

export interface PollSchedule {
  initialDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
}

export interface WaitRequest<R> {
  operation: string;
  referenceId: string;
  /**
   * One lookup, one attempt, through the client's admission stage; `deadline` is the
   * wait's, honoured while the lookup is queued there (QueuedPastDeadline); `wait` is this
   * wait's telemetry, when the client has some: the lookup is counted there.
   */
  lookup(signal: AbortSignal | undefined, deadline?: number, wait?: WaitTrace): Promise<R>;
  /** Set when the operation was just accepted: wait before the first lookup, tolerate 404 for a while. */
  acceptedAt?: number | undefined;
}

/** How long after acceptance a 404 means "not visible yet" rather than "does not exist". */
const NOT_FOUND_GRACE_MS = 30_000;

/**
 * The poller behind every `wait()`: backoff with jitter between lookups, a deadline,
 * abort, transient lookup failures ridden out, and early wake-ups (callbacks).
 */
export class Poller {
  readonly #scheduler = new Scheduler();
  /** Sleeping waits by lower-cased reference id: one sleep, or several on the same id. */
  readonly #waiting = new Map<string, WaitSleep | WaitSleep[]>();
  readonly #schedule: PollSchedule;
  readonly #telemetry: Telemetry | undefined;

  constructor(schedule: PollSchedule, telemetry?: Telemetry) {
    this.#schedule = schedule;
    this.#telemetry = telemetry;
  }

  /**
   * Ends the sleep of every wait on this reference id (a callback said it changed). With a
   * result confirmed by a lookup, a final one settles those waits without another lookup.
   */
  wake(referenceId: string, confirmed?: StatusLike): number {
    const sleeping = this.#waiting.get(referenceKey(referenceId));
    if (sleeping === undefined) return 0;
    if (!Array.isArray(sleeping)) {
      sleeping.wake(confirmed);
      return 1;
    }
    for (const sleep of [...sleeping]) sleep.wake(confirmed);
    return sleeping.length;
  }

  /** Sleeps on the shared timer (e.g. between consent token polls). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#scheduler.sleep(ms, signal).promise;
  }

  wait<R extends StatusLike>(
    request: WaitRequest<R>,
    options: WaitOptions<R> = {},
  ): Promise<Final<R>> {
    const { operation, referenceId } = request;
    const trace = this.#telemetry?.wait({ operation, referenceId });
    if (trace === undefined) return this.#wait(request, options);
    return this.#wait(request, options, trace).then(
      (final) => {
        trace.end({ status: final.status });
        return final;
      },
      (error: unknown) => {
        trace.end({ error });
        throw error;
      },
    );
  }

  async #wait<R extends StatusLike>(
    request: WaitRequest<R>,
    options: WaitOptions<R>,
    trace?: WaitTrace,
  ): Promise<Final<R>> {
    const { initialDelayMs, maxDelayMs } = this.#schedule;
    const timeoutMs = options.timeoutMs ?? this.#schedule.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    const graceUntil =
      request.acceptedAt === undefined ? 0 : request.acceptedAt + NOT_FOUND_GRACE_MS;
    let delay = request.acceptedAt === undefined ? 0 : initialDelayMs;
    let lastStatus: R | undefined;

    for (let polls = 0; ; polls++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 && polls > 0) {
        throw timedOut(request, lastStatus, timeoutMs);
      }
      let next = Math.min(maxDelayMs, Math.max(initialDelayMs, delay * 2));
      let delivered: StatusLike | undefined;
      if (delay > 0) {
        // Kept inline, not a helper awaited here: each pending wait holds one async frame,
        // not two. Guarded by the bench target "idle pending wait after GC <= 6 KB".
        const sleep = this.#enlist(request.referenceId, Math.min(delay, remaining), options.signal);
        try {
          await sleep.promise;
        } finally {
          this.#delist(request.referenceId, sleep);
        }
        delivered = sleep.delivered;
      }
      let result: R | undefined = delivered && isFinal(delivered) ? (delivered as R) : undefined;
      if (result === undefined) {
        try {
          result = await request.lookup(options.signal, deadline, trace);
          trace?.lookup({});
        } catch (error) {
          trace?.lookup({ error });
          if (options.signal?.aborted) throw options.signal.reason;
          if (error instanceof QueuedPastDeadline) {
            throw timedOut(request, lastStatus, timeoutMs);
          }
          // The wait's deadline bounds its retries and any Retry-After; the next lookup is
          // the schedule's step, or later when the answer's Retry-After says so.
          const decision = retryDecision(error, polls + 1, {
            maxRetries: Infinity,
            maxRetryAfterMs: Infinity,
            backoffMs: () => next,
            alsoTransient: (e) => isNotFoundError(e) && Date.now() < graceUntil,
          });
          if (!decision.retry) throw error;
          next = Math.max(next, decision.delayMs);
        }
      }
      if (result !== undefined) {
        const final = isFinal(result);
        if (final) result = finalise(result);
        // onStatus sees every change of status, the final one included.
        if (result.status !== lastStatus?.status) options.onStatus?.(result);
        lastStatus = result;
        if (final) return result as Final<R>;
      }
      delay = spreadJitter(next);
    }
  }

  /** A sleep between lookups, registered for wake-ups on its reference id. */
  #enlist(referenceId: string, ms: number, signal: AbortSignal | undefined): WaitSleep {
    const sleep: WaitSleep = this.#scheduler.sleep(ms, signal);
    const key = referenceKey(referenceId);
    const others = this.#waiting.get(key);
    if (others === undefined) this.#waiting.set(key, sleep);
    else if (Array.isArray(others)) others.push(sleep);
    else this.#waiting.set(key, [others, sleep]);
    return sleep;
  }

  #delist(referenceId: string, sleep: WaitSleep): void {
    const key = referenceKey(referenceId);
    const sleeping = this.#waiting.get(key);
    if (sleeping === sleep) this.#waiting.delete(key);
    else if (Array.isArray(sleeping)) {
      sleeping.splice(sleeping.indexOf(sleep), 1);
      if (sleeping.length === 0) this.#waiting.delete(key);
    }
  }
}

type WaitSleep = Sleep<StatusLike>;

/** Built only when the deadline passes: a closure for it would be held by every pending wait. */
function timedOut(
  request: WaitRequest<unknown>,
  lastStatus: StatusLike | undefined,
  timeoutMs: number,
) {
  return new WaitTimeoutError({
    ...request,
    lastStatus: lastStatus?.status,
    lastResult: lastStatus,
    timeoutMs,
  });
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
