import { isRateLimitError, MomoClient } from 'momo-partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { transferBody } from '../support/fake-service';
import { startLoopbackService } from '../support/loopback-service';

// Real sockets through the Node pool, whose answers carry node:http's raw header list
// instead of a Headers object: what an error keeps must read the same as fetch's Headers.
let service: Awaited<ReturnType<typeof startLoopbackService>> | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('response headers on the Node pool', () => {
  it('give Retry-After to the retry policy and the allowed headers to the error, case-insensitively and repeated values joined', async () => {
    service = await startLoopbackService({
      'POST /disbursement/v1_0/deposit': (_req, res) => {
        res.writeHead(429, [
          ['Retry-After', '120'],
          ['X-Request-Id', 'first'],
          ['x-request-id', 'second'],
          ['Set-Cookie', 'session=abc'],
          ['Content-Type', 'application/json'],
        ]);
        res.end('{"code":"TOO_MANY","message":"slow down"}');
      },
    });
    const momo = new MomoClient({ ...service.options, maxRetries: 1 });
    const error = await momo.disbursement.deposit(transferBody).catch((e: unknown) => e);
    expect(isRateLimitError(error)).toBe(true);
    if (!isRateLimitError(error)) return;
    expect(error.retryAfterMs).toBe(120_000); // beyond the cap: raised, not waited for
    expect(error.headers).toMatchObject({
      'content-type': 'application/json',
      'retry-after': '120',
      'x-request-id': 'first, second',
    });
    expect(error.headers).not.toHaveProperty('set-cookie');
    const names = Object.keys(error.headers);
    expect(names).toEqual([...names].sort()); // in Headers' order: sorted, lower-case
  });
});
