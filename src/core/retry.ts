/**
 * The single retry policy. Every retried HTTP call (creating calls, lookups, token
 * requests) goes through `withRetries`; nothing else in the SDK loops on failure.
 */
export interface RetryPolicy {
  maxRetries: number;
  /** First backoff delay; doubles per retry, with jitter. */
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

/** What one attempt ended with. */
export type AttemptOutcome<T> =
  | { done: true; value: T }
  | { done: false; error: Error; retryable: boolean; retryAfterMs?: number | undefined };

export interface RetryHooks {
  signal?: AbortSignal | undefined;
  onRetry?(attempt: number, delayMs: number, error: Error): void;
}

/** Statuses worth another attempt: the request may succeed if sent again. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with "equal jitter": half fixed, half random. */
export function backoffDelay(retry: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<AttemptOutcome<T>>,
  policy: RetryPolicy,
  hooks: RetryHooks = {},
): Promise<T> {
  for (let n = 1; ; n++) {
    const outcome = await attempt(n);
    if (outcome.done) return outcome.value;
    const retriesLeft = policy.maxRetries - (n - 1);
    if (!outcome.retryable || retriesLeft <= 0) throw outcome.error;
    if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.maxRetryAfterMs) {
      throw outcome.error;
    }
    const delay = outcome.retryAfterMs ?? backoffDelay(n, policy);
    hooks.onRetry?.(n, delay, outcome.error);
    await sleep(delay, hooks.signal);
  }
}

/** setTimeout as a promise that rejects with the signal's reason on abort. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
