import pRetry from 'p-retry';
import { equalJitter, sleep } from './time';
import { isTransient } from './transient';

/**
 * The single retry policy, on p-retry: every retried HTTP call (creating calls, lookups,
 * token requests) goes through `withRetries`; nothing else in the SDK loops on failure.
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
  /** Whether this failure is worth another attempt; `isTransient` when not given. */
  retryable?(error: Error): boolean;
  onRetry?(attempt: number, delayMs: number, error: Error): void;
}

/** The delay before retry number `retry` (1-based): exponential, capped, equal jitter. */
export function backoffDelay(retry: number, policy: RetryPolicy, random = Math.random): number {
  return equalJitter(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1)), random);
}

/**
 * Runs `attempt` until it resolves, or fails for good: a non-transient error, no retries
 * left, a Retry-After beyond the cap, or the caller's abort (whose reason is thrown as
 * it is, Error or not). Whatever an attempt resolved with is returned, even when the
 * caller aborted just as it arrived: an accepted call must not look like a failed one.
 * Most calls succeed at once, so the first attempt runs before any of the loop is built.
 */
export function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  hooks: () => RetryHooks,
): Promise<T> {
  return attempt(1).catch((error: unknown) => retryAfter(error, attempt, policy, hooks()));
}

/** The loop on p-retry, entered once attempt 1 has failed with `firstError`. */
async function retryAfter<T>(
  firstError: unknown,
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  hooks: RetryHooks,
): Promise<T> {
  const { signal } = hooks;
  let retry = false;
  try {
    return await pRetry((n) => (n === 1 ? Promise.reject(firstError) : attempt(n)), {
      retries: policy.maxRetries,
      // The delay is the SDK's (Retry-After, equal jitter), slept in onFailedAttempt.
      minTimeout: 0,
      factor: 1,
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
        // The hint is a field of the error: an ApiError's Retry-After (the poller reads it too).
        const retryAfterMs = (error as { retryAfterMs?: number | undefined }).retryAfterMs;
        retry =
          retriesLeft > 0 &&
          !signal?.aborted &&
          (hooks.retryable ?? isTransient)(error) &&
          (retryAfterMs === undefined || retryAfterMs <= policy.maxRetryAfterMs);
        if (!retry) return;
        const delayMs = retryAfterMs ?? backoffDelay(attemptNumber, policy);
        hooks.onRetry?.(attemptNumber, delayMs, error);
        await sleep(delayMs, signal);
      },
      shouldRetry: () => retry,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
