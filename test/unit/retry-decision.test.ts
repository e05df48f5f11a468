import {
  BadRequestError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
} from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { type RetrySettings, retryDecision } from '../../src/core/retry-decision';

// The one retry decision behind the retry loop and wait(): its rules in order, the
// first that applies wins. Each row is also caught by every later rule, so that a rule
// moved down the list fails its row.
const operation = 'collection.sendDeliveryNotification';
const tooMany = (retryAfterMs?: number) =>
  new RateLimitError({ status: 429, operation, retryAfterMs });
const unavailable = () => new ServerError({ status: 503, operation });

const settings: RetrySettings = {
  maxRetries: 2,
  maxRetryAfterMs: 60_000,
  backoffMs: (retry) => 1_000 * retry,
  // The delivery notification's rule: a 429 on a retry proves an earlier attempt landed.
  landed: (error) => error instanceof RateLimitError && error.retryAfterMs === 1_000,
};

const rows: Array<[rule: string, error: unknown, attempt: number, expected: unknown]> = [
  [
    '1. landed: never, even transient, with retries left and a Retry-After',
    tooMany(1_000),
    1,
    { retry: false, reason: 'landed' },
  ],
  [
    '2. not transient: never, even with retries left and a Retry-After',
    new BadRequestError({ status: 400, operation, retryAfterMs: 1_000 }),
    1,
    { retry: false, reason: 'not-transient' },
  ],
  [
    '2. a 5xx business refusal is not transient',
    new ServerError({ status: 500, operation, code: 'INVALID_CURRENCY' }),
    1,
    { retry: false, reason: 'not-transient' },
  ],
  [
    '3. out of attempts: never, even with a Retry-After under the cap',
    tooMany(2_000),
    3,
    { retry: false, reason: 'out-of-attempts' },
  ],
  [
    '4. a Retry-After over maxRetryAfterMs: never',
    tooMany(60_001),
    1,
    { retry: false, reason: 'retry-after-too-long' },
  ],
  ['5. a Retry-After: exactly that delay', tooMany(7_000), 2, { retry: true, delayMs: 7_000 }],
  ['6. else the backoff of this retry (a 503)', unavailable(), 2, { retry: true, delayMs: 2_000 }],
  [
    '6. else the backoff of this retry (no answer)',
    new ConnectionError('socket hang up', { operation }),
    1,
    { retry: true, delayMs: 1_000 },
  ],
];

describe('retryDecision', () => {
  it.each(rows)('%s', (_rule, error, attempt, expected) => {
    expect(retryDecision(error, attempt, settings)).toEqual(expected);
  });

  it("takes a caller's own transient failures, and reads Retry-After from headers", () => {
    const wait: RetrySettings = {
      maxRetries: Number.POSITIVE_INFINITY,
      maxRetryAfterMs: Number.POSITIVE_INFINITY,
      backoffMs: () => 4_000,
      alsoTransient: (error) => error instanceof NotFoundError,
    };
    const notYet = new NotFoundError({ status: 404, operation });
    expect(retryDecision(notYet, 50, wait)).toEqual({ retry: true, delayMs: 4_000 });
    expect(retryDecision(notYet, 1, settings)).toEqual({ retry: false, reason: 'not-transient' });
    const hinted = new ServerError({ status: 503, operation, headers: { 'retry-after': '3' } });
    expect(retryDecision(hinted, 1, wait)).toEqual({ retry: true, delayMs: 3_000 });
    expect(retryDecision(tooMany(600_000), 1, wait)).toEqual({ retry: true, delayMs: 600_000 });
  });
});
