import { isWaitTimeoutError } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE, makeClient, tokenHandler, useFakeService } from '../support/fake-service';

const service = useFakeService();
afterEach(() => {
  vi.useRealTimers();
});

/** Fake timers, and deposits that stay PENDING whoever looks. */
function foreverPending() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  service.server.use(
    tokenHandler(),
    http.get(`${BASE}/disbursement/v1_0/deposit/:id`, () =>
      HttpResponse.json({ status: 'PENDING' }),
    ),
  );
}

describe('one scheduler for all waits', () => {
  it('200 concurrent waits keep one timer between lookups', async () => {
    foreverPending();
    const momo = makeClient({
      polling: { initialDelayMs: 1_000, maxDelayMs: 4_000, timeoutMs: 20_000 },
    });
    const ids = Array.from({ length: 200 }, () => crypto.randomUUID());
    const waits = ids.map((id) => momo.disbursement.waitForDeposit(id).catch((e: unknown) => e));

    await vi.advanceTimersByTimeAsync(50); // the first lookups are answered; all waits sleep
    expect(service.seen.filter((s) => s.method === 'GET')).toHaveLength(200);
    expect(vi.getTimerCount()).toBe(1);

    await vi.advanceTimersByTimeAsync(3_000); // a second and third round, still one timer after each
    expect(vi.getTimerCount()).toBe(1);
    expect(service.seen.filter((s) => s.method === 'GET').length).toBeGreaterThanOrEqual(600);

    await vi.advanceTimersByTimeAsync(20_000);
    const outcomes = await Promise.all(waits);
    expect(outcomes.every(isWaitTimeoutError)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a wait ended by abort or by a callback leaves no timer behind', async () => {
    foreverPending();
    const momo = makeClient({
      polling: { initialDelayMs: 8_000, maxDelayMs: 8_000, timeoutMs: 60_000 },
    });
    const controller = new AbortController();
    const waiting = momo.disbursement
      .waitForDeposit('5f0a3c1e-2b4d-4e6f-8a9b-0c1d2e3f4a5b', { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100); // first lookup done; now asleep for 8 s
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error('stop'));
    await waiting;
    expect(vi.getTimerCount()).toBe(0); // the process may exit now, not 8 s later
  });
});
