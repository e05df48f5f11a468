import { isConflictError, isRateLimitError, isServerError } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BASE,
  makeClient,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';

// The retry loop (p-retry under the SDK's policy), driven by vitest fake timers.
const service = useFakeService();
const DEPOSIT = '/disbursement/v1_0/deposit';
const deposits = () => service.seen.filter((s) => s.path === DEPOSIT);
const noBody = (status: number, headers?: Record<string, string>) => () =>
  new Response(null, headers ? { status, headers } : { status });

function depositAnswers(...answers: Array<() => Response | Promise<Response>>) {
  let n = 0;
  service.server.use(
    tokenHandler(),
    http.post(`${BASE}${DEPOSIT}`, () => (answers[n++] ?? noBody(202))()),
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the retry loop', () => {
  it('waits exactly Retry-After before the next attempt, under the same reference id', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    depositAnswers(noBody(429, { 'Retry-After': '7' }));
    const accepted = makeClient().disbursement.deposit(transferBody);
    await vi.advanceTimersByTimeAsync(6_900);
    expect(deposits()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    const { referenceId } = await accepted;
    expect(deposits()).toHaveLength(2);
    expect(deposits().map((d) => d.headers['x-reference-id'])).toEqual([referenceId, referenceId]);
  });

  it('backs off with equal jitter: at least half of each doubling step', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0); // the lower edge of the jitter
    depositAnswers(noBody(503), noBody(503));
    const accepted = makeClient().disbursement.deposit(transferBody);
    await vi.advanceTimersByTimeAsync(249); // first step 500 ms: at least 250
    expect(deposits()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2);
    expect(deposits()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(498); // second step 1000 ms: at least 500
    expect(deposits()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(4);
    await accepted;
    expect(deposits()).toHaveLength(3);
  });

  it('raises the 429 at once when Retry-After is beyond the cap', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    depositAnswers(noBody(429, { 'Retry-After': '3600' }));
    const error = await makeClient()
      .disbursement.deposit(transferBody)
      .catch((e: unknown) => e);
    expect(isRateLimitError(error)).toBe(true);
    expect(deposits()).toHaveLength(1);
  });

  it('passes a non-Error abort reason through as it is, during the backoff', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    depositAnswers(noBody(503));
    const controller = new AbortController();
    const pending = makeClient()
      .disbursement.deposit(transferBody, { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10); // the 503 is in; the loop sleeps
    controller.abort('shutting down');
    expect(await pending).toBe('shutting down');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(deposits()).toHaveLength(1);
  });

  it('passes an abort reason object through as it is, during an attempt', async () => {
    let release: () => void = () => {};
    depositAnswers(
      () => new Promise<Response>((resolve) => (release = () => resolve(noBody(202)()))),
    );
    const controller = new AbortController();
    const reason = { why: 'deploy' };
    const pending = makeClient()
      .disbursement.deposit(transferBody, { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(deposits()).toHaveLength(1));
    controller.abort(reason);
    release();
    expect(await pending).toBe(reason);
  });

  it('still returns a 202 that arrived just as the caller aborted', async () => {
    depositAnswers(noBody(202));
    const controller = new AbortController();
    const momo = makeClient({
      // Aborts at the moment the deposit's answer is in, before the call resolves.
      hooks: {
        onResponse: (info) => {
          if (info.operation === 'disbursement.deposit') controller.abort(new Error('too late'));
        },
      },
    });
    const accepted = await momo.disbursement.deposit(transferBody, { signal: controller.signal });
    expect(accepted.referenceId).toBe(deposits()[0]?.headers['x-reference-id']);
    expect(controller.signal.aborted).toBe(true);
  });

  it('treats the landed answer on a retry as accepted, and on a first attempt as a conflict', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    depositAnswers(noBody(500), () =>
      HttpResponse.json({ code: 'RESOURCE_ALREADY_EXIST', message: 'dup' }, { status: 409 }),
    );
    const accepted = makeClient().disbursement.deposit(transferBody);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await accepted).referenceId).toBe(deposits()[0]?.headers['x-reference-id']);

    service.seen.length = 0;
    depositAnswers(() =>
      HttpResponse.json({ code: 'RESOURCE_ALREADY_EXIST', message: 'dup' }, { status: 409 }),
    );
    const conflict = await makeClient()
      .disbursement.deposit(transferBody)
      .catch((e: unknown) => e);
    expect(isConflictError(conflict)).toBe(true);
    expect(deposits()).toHaveLength(1); // a landed answer is never retried
  });

  it('retries a 408 like any transient answer, and gives up after maxRetries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    depositAnswers(noBody(408), noBody(500), noBody(500));
    const failed = makeClient({ maxRetries: 2 })
      .disbursement.deposit(transferBody)
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await failed;
    expect(isServerError(error)).toBe(true);
    expect(deposits()).toHaveLength(3);
  });
});
