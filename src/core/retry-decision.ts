import { parseRetryAfter } from './time';
import { isTransient } from './transient';

/** Why a failure is not tried again. */
export type NoRetryReason =
  /** The answer proves an earlier attempt landed (a creating call's 409 on a retry). */
  | 'landed'
  /** Sending the same request again would fail the same way (see `isTransient`). */
  | 'not-transient'
  /** No retries left. */
  | 'out-of-attempts'
  /** The answer's Retry-After is longer than `maxRetryAfterMs`. */
  | 'retry-after-too-long';

/** After a failed attempt: never again, and why; or again after `delayMs`. */
export type RetryDecision =
  | { readonly retry: false; readonly reason: NoRetryReason }
  | { readonly retry: true; readonly delayMs: number };

/** What a caller of `retryDecision` brings: its limits, its backoff, its own exceptions. */
export interface RetrySettings {
  /** Retries allowed after the first attempt (Infinity: a deadline bounds them instead). */
  readonly maxRetries: number;
  /** A Retry-After longer than this is not waited for (Infinity: never too long). */
  readonly maxRetryAfterMs: number;
  /** The delay before retry number `retry` (1-based) when the answer names none. */
  backoffMs(retry: number): number;
  /** An answer that proves an earlier attempt of this call landed: never repeated. */
  readonly landed?: ((error: unknown) => boolean) | undefined;
  /** Failures worth another try besides the transient ones (a wait: a 404 just after acceptance). */
  readonly alsoTransient?: ((error: unknown) => boolean) | undefined;
}

/**
 * The one retry decision, its rules in order, the first that applies wins: an answer that
 * proves an earlier attempt landed is never retried; nor is a failure that is not
 * transient; nor one with no retries left; nor one whose Retry-After is over the cap. A
 * Retry-After is waited for as it is; otherwise the caller's backoff (with its jitter).
 * `attempt` is the number (1-based) of the attempt that just failed. The retry loop
 * (every HTTP call) and the poller behind `wait()` both decide here.
 */
export function retryDecision(
  error: unknown,
  attempt: number,
  settings: RetrySettings,
): RetryDecision {
  if (settings.landed?.(error) === true) return { retry: false, reason: 'landed' };
  if (!isTransient(error) && settings.alsoTransient?.(error) !== true) {
    return { retry: false, reason: 'not-transient' };
  }
  if (attempt > settings.maxRetries) return { retry: false, reason: 'out-of-attempts' };
  const retryAfterMs = retryAfterOf(error);
  if (retryAfterMs !== undefined && retryAfterMs > settings.maxRetryAfterMs) {
    return { retry: false, reason: 'retry-after-too-long' };
  }
  if (retryAfterMs !== undefined) return { retry: true, delayMs: retryAfterMs };
  return { retry: true, delayMs: settings.backoffMs(attempt) };
}

/**
 * A failure's Retry-After in milliseconds: an ApiError's `retryAfterMs` (a 429's, a
 * 503's), else a `retry-after` among the error's headers, whatever its class.
 */
export function retryAfterOf(error: unknown): number | undefined {
  const e = error as { retryAfterMs?: unknown; headers?: unknown } | null | undefined;
  if (typeof e?.retryAfterMs === 'number') return e.retryAfterMs;
  const headers = e?.headers as Record<string, string | undefined> | null | undefined;
  return parseRetryAfter((typeof headers === 'object' && headers?.['retry-after']) || null);
}
