import pRetry from 'p-retry';
import { type RetrySettings, retryDecision } from './retry-decision';
import { equalJitter, sleep } from './time';

/**
 * The single retry policy, on p-retry: every retried HTTP call (creating calls, lookups,
 * token requests) goes through `retryAfter`; nothing else in the SDK loops on failure.
 */
export interface RetryPolicy {
  maxRetries: number;
  /** First backoff step; doubles per retry, with equal jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is raised instead. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export interface RetryHooks {
  signal?: AbortSignal | undefined;
  /** An answer that proves an earlier attempt landed: never retried (see `retryDecision`). */
  landed?: ((error: unknown) => boolean) | undefined;
  /**
   * Whether a failed attempt counts against `maxRetries`. The transport's attempts count
   * when they left the client: `maxRetries` counts sends, and the attempts that never left
   * (queued past their deadline) have a budget as large of their own, so that neither
   * kind can loop without end.
   */
  counts(error: unknown): boolean;
  onRetry?(attempt: number, delayMs: number, error: Error): void;
}

/** The delay before retry number `retry` (1-based): exponential, capped, equal jitter. */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  return equalJitter(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1)));
}

/**
 * The retry loop, entered once attempt 1 has failed with `firstError` (most calls succeed
 * at once, so their caller builds none of it): runs `attempt` until it resolves, or fails
 * for good: as `retryDecision` decides (an earlier attempt landed, a non-transient error,
 * no retries left, a Retry-After beyond the cap), or on the caller's abort (whose reason
 * is thrown as it is, Error or not). Whatever an attempt resolved with is returned, even
 * when the caller aborted just as it arrived: an accepted call must not look like a
 * failed one. `firstError` itself is judged first (it may be the end).
 */
export async function retryAfter<T>(
  firstError: unknown,
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  hooks: RetryHooks,
): Promise<T> {
  const { signal } = hooks;
  const settings: RetrySettings = {
    maxRetries: policy.maxRetries,
    maxRetryAfterMs: policy.maxRetryAfterMs,
    backoffMs: (retry) => backoffDelay(retry, policy),
    landed: hooks.landed,
  };
  let retry = false;
  let counted = 0;
  let uncounted = 0;
  const { counts } = hooks;
  try {
    return await pRetry((n) => (n === 1 ? Promise.reject(firstError) : attempt(n)), {
      // Each kind of attempt has maxRetries of its own (see `counts`): at most twice as many in all.
      retries: policy.maxRetries * 2 + 1,
      // The delay is the SDK's (Retry-After, equal jitter), slept in onFailedAttempt.
      minTimeout: 0,
      factor: 1,
      onFailedAttempt: async ({ error, attemptNumber }) => {
        // The caller's abort ends the loop before any rule is asked.
        const kind = counts(error) ? ++counted : ++uncounted;
        const decision = signal?.aborted ? undefined : retryDecision(error, kind, settings);
        retry = decision?.retry === true;
        if (!decision?.retry) return;
        hooks.onRetry?.(attemptNumber, decision.delayMs, error);
        await sleep(decision.delayMs, signal);
      },
      shouldRetry: () => retry,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
