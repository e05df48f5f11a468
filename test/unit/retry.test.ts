import {
  isConflictError,
  isConnectionError,
  isRateLimitError,
  isServerError,
  isTimeoutError,
} from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BASE,
  makeClient,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';

const service = useFakeService();
const DEPOSIT = '/disbursement/v1_0/deposit';
const deposits = () => service.seen.filter((s) => s.path === DEPOSIT);

/** Answers the deposit endpoint with these responses in turn, then 202. */
function depositAnswers(...answers: Array<() => Response>) {
  let n = 0;
  service.server.use(
    tokenHandler(),
    http.post(`${BASE}${DEPOSIT}`, () =>
      (answers[n++] ?? (() => new Response(null, { status: 202 })))(),
    ),
  );
}

/** Answers the deposit endpoint with 202 after `ms`. */
function slowDeposit(ms: number) {
  service.server.use(
    tokenHandler(),
    http.post(`${BASE}${DEPOSIT}`, async () => {
      await new Promise((r) => setTimeout(r, ms));
      return new Response(null, { status: 202 });
    }),
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('retry policy', () => {
  it('retries a 5xx under the same X-Reference-Id', async () => {
    depositAnswers(() =>
      HttpResponse.json({ code: 'INTERNAL_PROCESSING_ERROR', message: 'x' }, { status: 500 }),
    );
    const accepted = await makeClient().disbursement.deposit(transferBody);
    expect(accepted.landedEarlier).toBe(false); // the retry got the 202 itself
    const ids = deposits().map((s) => s.headers['x-reference-id']);
    expect(ids).toHaveLength(2);
    expect(new Set(ids)).toEqual(new Set([accepted.referenceId]));
  });

  it('treats 409 RESOURCE_ALREADY_EXIST on a retry as accepted', async () => {
    depositAnswers(
      () => HttpResponse.error(), // the connection drops after the service processed it
      () => HttpResponse.json({ code: 'RESOURCE_ALREADY_EXIST', message: 'dup' }, { status: 409 }),
    );
    const accepted = await makeClient().disbursement.deposit(transferBody);
    expect(accepted.referenceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(accepted.landedEarlier).toBe(true); // told apart from a fresh 202
    expect(deposits()).toHaveLength(2);
  });

  it('raises ConflictError for a 409 on the first attempt', async () => {
    depositAnswers(() =>
      HttpResponse.json({ code: 'RESOURCE_ALREADY_EXIST', message: 'dup' }, { status: 409 }),
    );
    const error = await makeClient()
      .disbursement.deposit(transferBody)
      .catch((e) => e);
    expect(isConflictError(error)).toBe(true);
    expect(error.code).toBe('RESOURCE_ALREADY_EXIST');
    expect(error.referenceId).toBe(deposits()[0]?.headers['x-reference-id']);
    expect(deposits()).toHaveLength(1);
  });

  it('does not retry a 400', async () => {
    depositAnswers(() =>
      HttpResponse.json({ code: 'INVALID_CURRENCY', message: 'no' }, { status: 400 }),
    );
    await expect(makeClient().disbursement.deposit(transferBody)).rejects.toMatchObject({
      name: 'BadRequestError',
      code: 'INVALID_CURRENCY',
    });
    expect(deposits()).toHaveLength(1);
  });

  it('gives up after maxRetries and names the reference id', async () => {
    const down = () => new Response('busy', { status: 503 });
    depositAnswers(down, down, down, down);
    const error = await makeClient({ maxRetries: 1 })
      .disbursement.deposit(transferBody)
      .catch((e) => e);
    expect(isServerError(error)).toBe(true);
    expect(error.status).toBe(503);
    expect(error.message).toContain(error.referenceId);
    expect(deposits()).toHaveLength(2);
  });

  it('honours Retry-After before the next attempt', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    depositAnswers(() => new Response(null, { status: 429, headers: { 'Retry-After': '5' } }));
    const pending = makeClient().disbursement.deposit(transferBody);
    await vi.advanceTimersByTimeAsync(4_900);
    expect(deposits()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    await pending;
    expect(deposits()).toHaveLength(2);
  });

  it('raises RateLimitError when Retry-After is beyond what it will wait', async () => {
    depositAnswers(() => new Response(null, { status: 429, headers: { 'Retry-After': '3600' } }));
    const error = await makeClient()
      .disbursement.deposit(transferBody)
      .catch((e) => e);
    expect(isRateLimitError(error)).toBe(true);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(deposits()).toHaveLength(1);
  });

  it('times out each attempt and reports a TimeoutError', async () => {
    slowDeposit(500);
    // Also the token request's deadline: long enough for it on a busy machine.
    const error = await makeClient({ timeoutMs: 300, maxRetries: 1 })
      .disbursement.deposit(transferBody)
      .catch((e) => e);
    expect(isTimeoutError(error)).toBe(true);
    expect(isConnectionError(error)).toBe(true);
    expect(deposits()).toHaveLength(2);
  });

  it('stops at once when the caller aborts, with the abort reason', async () => {
    slowDeposit(500);
    const controller = new AbortController();
    const pending = makeClient().disbursement.deposit(transferBody, { signal: controller.signal });
    // Once the deposit is on the wire (a timer could fire while the token is fetched).
    await vi.waitFor(() => expect(deposits()).toHaveLength(1), { timeout: 10_000 });
    controller.abort(new Error('shutting down'));
    await expect(pending).rejects.toThrow('shutting down');
    expect(deposits()).toHaveLength(1);
  });
});
