import { isValidationError, isWaitTimeoutError, MomoClient } from 'momo-partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { transferBody } from '../support/fake-service';
import { startLoopbackService } from '../support/loopback-service';

// Living under the provider's cap on status lookups: one budget and one pause per client.
// Real timers on loopback; only lower bounds on time (a busy machine only widens gaps).
let service: Awaited<ReturnType<typeof startLoopbackService>> | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

type Answer = { status: number; retryAfter?: string; body?: unknown };

/** Deposit lookups answered by `answer(n)` (n counts lookups from 0), their arrival times kept. */
async function provider(answer: (n: number) => Answer) {
  const arrivals: number[] = [];
  service = await startLoopbackService({
    'GET *': (_req, res) => {
      const { status, retryAfter, body } = answer(arrivals.length);
      arrivals.push(Date.now());
      res.statusCode = status;
      if (retryAfter) res.setHeader('retry-after', retryAfter);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body ?? { code: 'LIMITED', message: 'slow down' }));
    },
  });
  return { arrivals, options: service.options };
}

const pending = { status: 200, body: { amount: '1', currency: 'EUR', status: 'PENDING' } };
const successful = { status: 200, body: { amount: '1', currency: 'EUR', status: 'SUCCESSFUL' } };
const fastPolling = { initialDelayMs: 20, maxDelayMs: 50, timeoutMs: 20_000 };

describe('the lookup gate of a client', () => {
  it('a 429 on one lookup holds every wait and lookup of the client until Retry-After passes', async () => {
    const { arrivals, options } = await provider((n) =>
      n === 0 ? { status: 429, retryAfter: '1' } : successful,
    );
    const momo = new MomoClient({ ...options, polling: fastPolling });
    const deposits = await Promise.all(
      Array.from({ length: 5 }, () => momo.disbursement.deposit(transferBody)),
    );
    const refused = await deposits[0]?.status({ maxRetries: 0 }).catch((e: unknown) => e);
    expect((refused as { status?: number }).status).toBe(429);
    const refusedAt = arrivals[0] as number;
    const results = await Promise.all([
      ...deposits.map((d) => d.wait()),
      momo.disbursement.getDeposit(deposits[1]?.referenceId as string),
    ]);
    expect(results.every((r) => r.status === 'SUCCESSFUL')).toBe(true);
    // Not one of the others reached the service inside the second it asked for.
    expect(arrivals).toHaveLength(7);
    for (const at of arrivals.slice(1)) expect(at - refusedAt).toBeGreaterThanOrEqual(950);
  });

  it("wait() honours a 503's Retry-After before its next lookup", async () => {
    const { arrivals, options } = await provider((n) =>
      n === 0 ? { status: 503, retryAfter: '1' } : successful,
    );
    const momo = new MomoClient({ ...options, maxRetries: 0, polling: fastPolling });
    const result = await momo.disbursement.deposit(transferBody).wait();
    expect(result.status).toBe('SUCCESSFUL');
    expect(arrivals).toHaveLength(2);
    expect((arrivals[1] as number) - (arrivals[0] as number)).toBeGreaterThanOrEqual(950);
  });

  it('lookupRate spaces every lookup of the client evenly', async () => {
    const { arrivals, options } = await provider(() => successful);
    // The gate governs when a lookup is sent: onRequest sees that moment, without the
    // socket and scheduling jitter a busy machine adds before the server's handler runs.
    const sentAt: number[] = [];
    const momo = new MomoClient({
      ...options,
      lookupRate: 20,
      polling: fastPolling,
      hooks: { onRequest: (info) => info.method === 'GET' && sentAt.push(performance.now()) },
    });
    const deposits = await Promise.all(
      Array.from({ length: 8 }, () => momo.disbursement.deposit(transferBody)),
    );
    await Promise.all(deposits.map((d) => d.wait()));
    expect(arrivals).toHaveLength(8);
    expect(sentAt).toHaveLength(8);
    // 20 per second: the gate lets them go 50 ms apart. onRequest reads the clock a few
    // promise turns after the gate did, and on a loaded machine one call's turns can lag
    // another's by a few ms (seen: up to 18 ms), so one gap may look short; the span of
    // all 8 cannot shrink by more than one call's lag: 350 ms less at most 50, where a
    // burst (no gate) would send all 8 within a few ms.
    expect((sentAt[7] as number) - (sentAt[0] as number)).toBeGreaterThanOrEqual(7 * 50 - 50);
    // Nothing asserted of the arrivals' spacing: a loaded machine can hold the first send
    // in the socket while the last goes straight through (the gate's moments are above).
  });

  it('a wait whose deadline passes while its lookup is queued throws WaitTimeoutError', async () => {
    const { arrivals, options } = await provider(() => pending);
    const momo = new MomoClient({ ...options, lookupRate: 1, polling: fastPolling });
    const deposits = await Promise.all(
      Array.from({ length: 5 }, () => momo.disbursement.deposit(transferBody)),
    );
    const outcomes = await Promise.all(
      deposits.map((d) => d.wait({ timeoutMs: 300 }).catch((e: unknown) => e)),
    );
    expect(outcomes.every(isWaitTimeoutError)).toBe(true);
    // One lookup a second: the first went, the others timed out in the queue (a second
    // could go only if the 300 ms deadlines fired 700 ms late; a third, 1.7 s late).
    expect(arrivals.length).toBeLessThanOrEqual(2);
  });

  it('refuses a lookupRate that is not a positive number, naming it', () => {
    const make = () =>
      new MomoClient({ baseUrl: 'http://127.0.0.1:9', targetEnvironment: 'x', lookupRate: 0 });
    const error = (() => {
      try {
        make();
      } catch (e) {
        return e;
      }
    })();
    expect(isValidationError(error)).toBe(true);
    expect((error as { field: string }).field).toBe('lookupRate');
  });
});
