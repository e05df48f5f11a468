import { isTimeoutError, MomoClient } from 'momo-partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { transferBody } from '../support/fake-service';
import { acceptAfter, startLoopbackService } from '../support/loopback-service';

// Real sockets on loopback, through the SDK's default transport.
let service: Awaited<ReturnType<typeof startLoopbackService>> | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('the transport under load and stalls', () => {
  it('keeps 1,000 concurrent creating calls within maxConcurrency and maxSockets', async () => {
    service = await startLoopbackService({
      'POST /disbursement/v1_0/deposit': acceptAfter(2),
    });
    const momo = new MomoClient({ ...service.options, maxConcurrency: 16, maxSockets: 8 });
    const calls = Array.from({ length: 1_000 }, () => momo.disbursement.deposit(transferBody));
    const accepted = await Promise.all(calls);
    expect(new Set(accepted.map((a) => a.referenceId)).size).toBe(1_000);
    expect(service.stats.peakInFlight).toBeLessThanOrEqual(16);
    expect(service.stats.peakInFlight).toBeGreaterThan(1);
    expect(service.stats.peakSockets).toBeLessThanOrEqual(8); // the Node pool's cap
  });

  it('never starves the token request: a cold burst past the limit makes one token request', async () => {
    service = await startLoopbackService();
    // The calls wait for the token holding no slot, and the token request is not held back.
    const momo = new MomoClient({ ...service.options, maxConcurrency: 2, timeoutMs: 2_000 });
    const accepted = await Promise.all(
      Array.from({ length: 50 }, () => momo.disbursement.deposit(transferBody)),
    );
    expect(accepted).toHaveLength(50);
    expect(service.seen.filter((s) => s.path.endsWith('/token/'))).toHaveLength(1);
    expect(service.stats.peakInFlight).toBeLessThanOrEqual(3); // two deposits and the token
  });

  it('times out a stalled body and retries it under the same reference id', async () => {
    let attempts = 0;
    service = await startLoopbackService({
      'POST /disbursement/v1_0/deposit': (_req, res) => {
        attempts++;
        res.writeHead(202, { 'content-type': 'application/json', 'content-length': '100' });
        if (attempts === 1)
          res.write('{"stalled":'); // headers sent, the body never ends
        else res.end(' '.repeat(100));
      },
    });
    const momo = new MomoClient({ ...service.options, timeoutMs: 300 });
    const accepted = await momo.disbursement.deposit(transferBody);
    const ids = service.seen.filter((s) => s.path.endsWith('/deposit'));
    expect(ids.map((s) => s.headers['x-reference-id'])).toEqual([
      accepted.referenceId,
      accepted.referenceId,
    ]);
  });

  it('reports a body that never completes as a TimeoutError naming its duration and attempt', async () => {
    service = await startLoopbackService({
      'POST /disbursement/v1_0/deposit': (_req, res) => {
        res.writeHead(202, { 'content-length': '10' });
        res.write('{');
      },
    });
    const momo = new MomoClient({ ...service.options, timeoutMs: 200, maxRetries: 1 });
    const error = await momo.disbursement.deposit(transferBody).catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(/200 ms attempt timeout \(attempt 2, referenceId /);
  });

  it('fails a call queued past its deadline with a TimeoutError, having sent nothing', async () => {
    service = await startLoopbackService({
      'POST /disbursement/v1_0/deposit': acceptAfter(400),
    });
    // The first deposit's deadline: far past its 400 ms answer, however busy the machine.
    const momo = new MomoClient({ ...service.options, maxConcurrency: 1, timeoutMs: 10_000 });
    await momo.disbursement.getBalance().catch(() => {}); // the token is cached
    const first = momo.disbursement.deposit(transferBody);
    const queued = momo.disbursement
      .deposit(transferBody, { timeoutMs: 100, maxRetries: 0 })
      .catch((e: unknown) => e);
    const error = await queued;
    expect(isTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(/free request slot/);
    await first;
    expect(service.seen.filter((s) => s.path.endsWith('/deposit'))).toHaveLength(1);
  });

  it('retries a call whose first attempt timed out in the queue, like any timeout', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    service = await startLoopbackService({
      // The first deposit holds the only slot until the second's attempt 1 has timed out in
      // the queue; later ones answer at once.
      'POST /disbursement/v1_0/deposit': acceptAfter((n) => (n === 0 ? released : 0)),
    });
    const retries: number[] = [];
    const momo = new MomoClient({
      ...service.options,
      maxConcurrency: 1,
      hooks: {
        onRetry: ({ attempt }) => {
          retries.push(attempt);
          release();
        },
      },
    });
    await momo.disbursement.getBalance().catch(() => {}); // the token is cached
    const first = momo.disbursement.deposit(transferBody);
    const second = await momo.disbursement.deposit(transferBody, { timeoutMs: 500 });
    await first;
    expect(retries).toEqual([1]); // attempt 1 waited past its deadline, attempt 2 went out
    const sent = service.seen.filter((s) => s.path.endsWith('/deposit'));
    expect(sent.map((s) => s.headers['x-reference-id'])).toContain(second.referenceId);
    expect(sent).toHaveLength(2);
  });

  it('lets a queued call go when its caller aborts', async () => {
    service = await startLoopbackService({
      'POST /disbursement/v1_0/deposit': acceptAfter(200),
    });
    const momo = new MomoClient({ ...service.options, maxConcurrency: 1 });
    const first = momo.disbursement.deposit(transferBody);
    const controller = new AbortController();
    const queued = momo.disbursement
      .deposit(transferBody, { signal: controller.signal })
      .catch((e: unknown) => e);
    setTimeout(() => controller.abort('not needed'), 50);
    expect(await queued).toBe('not needed');
    await first;
    const third = await momo.disbursement.deposit(transferBody); // the slot was not lost
    expect(third.referenceId).toBeTruthy();
  });
});

describe('a call that gets no answer', () => {
  it('is a ConnectionError naming the cause, with the cause chain kept (codes, no request)', async () => {
    const closed = await startLoopbackService();
    const { options } = closed;
    await closed.close(); // nothing listens on that port any more
    const momo = new MomoClient({ ...options, maxRetries: 0 });
    const error = await momo.disbursement.getBalance().catch((e: unknown) => e);
    expect((error as Error).name).toBe('ConnectionError');
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    const codes: unknown[] = [];
    for (let e = (error as Error).cause; e; e = (e as Error).cause) {
      codes.push((e as { code?: unknown }).code);
      expect(Object.keys(e as object)).not.toContain('request');
    }
    expect(codes).toContain('ECONNREFUSED');
  });
});
