import { RateLimitError, ValidationError } from 'momo-partner-sdk';
import { createSimulator, type RecordedRequest, type Simulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The provider's caps: `createSimulator({ limits })` answers 429 with Retry-After beyond
// N lookups (GETs) or N creating calls in any sliding second, and processes nothing then.
const payee = { partyIdType: 'MSISDN', partyId: '46700000001' } as const;
const body = { amount: '5', currency: 'EUR', payee };

afterEach(() => {
  vi.useRealTimers();
});

/** Only Date is faked: the simulator's windows follow it, I/O and the client's timers stay real. */
function fakeClock(): (ms: number) => void {
  vi.useFakeTimers({ toFake: ['Date'], now: 1_000_000 });
  return (ms) => vi.setSystemTime(Date.now() + ms);
}

/** n balance lookups at once from a fresh client (no retries): how many passed, the 429s. */
async function lookups(sim: Simulator, n: number) {
  const momo = sim.client({ maxRetries: 0 });
  const results = await Promise.allSettled(
    Array.from({ length: n }, () => momo.disbursement.getBalance()),
  );
  const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
  return { passed: n - refused.length, refused };
}

const limited = (sim: Simulator, kind: RecordedRequest['limited']) =>
  sim.requests.filter((r) => r.limited === kind).length;

describe('simulator limits', () => {
  it('lookups: N pass in any sliding second, the rest get 429 with Retry-After, nothing else changes', async () => {
    const advance = fakeClock();
    const sim = createSimulator({ limits: { lookupsPerSecond: 5 } });

    const first = await lookups(sim, 8); // t = 0
    expect(first.passed).toBe(5);
    expect(first.refused).toHaveLength(3);
    for (const error of first.refused) {
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, retryAfterMs: 1_000, code: 'TOO_MANY_REQUESTS' });
    }
    expect(limited(sim, 'lookups')).toBe(3);

    advance(999); // still within the second of the first five
    expect((await lookups(sim, 1)).passed).toBe(0);
    advance(1); // t = 1000: the first five left the window
    expect((await lookups(sim, 3)).passed).toBe(3);
    advance(500); // t = 1500: three in the window
    expect((await lookups(sim, 4)).passed).toBe(2);
    advance(500); // t = 2000: the three of t = 1000 left, the two of t = 1500 stay
    expect((await lookups(sim, 5)).passed).toBe(3);
    expect(limited(sim, 'lookups')).toBe(3 + 1 + 2 + 2);
    expect(limited(sim, 'creates')).toBe(0);
  });

  it('creates: beyond the cap a creating call is refused and nothing is stored; sent again later it is created', async () => {
    const advance = fakeClock();
    const sim = createSimulator({ limits: { createsPerSecond: 2 } });
    const momo = sim.client({ maxRetries: 0 });
    const ids = Array.from({ length: 4 }, () => crypto.randomUUID());

    const results = await Promise.allSettled(
      ids.map((referenceId) => momo.disbursement.deposit(body, { referenceId })),
    );
    const refusedIds = ids.filter((_, i) => results[i]?.status === 'rejected');
    expect(refusedIds).toHaveLength(2);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(RateLimitError);
    }
    expect(sim.transactions.map((tx) => tx.referenceId).sort()).toEqual(
      ids.filter((id) => !refusedIds.includes(id)).sort(),
    );
    expect(limited(sim, 'creates')).toBe(2);
    expect((await lookups(sim, 3)).passed).toBe(3); // lookups have no cap here

    advance(1_000);
    // A fresh client: this one paces its creates after the 429 (the provider's rate), on a
    // Date this test holds still, while what is asserted here is the simulator's window.
    const later = sim.client({ maxRetries: 0 });
    for (const referenceId of refusedIds) {
      await later.disbursement.deposit(body, { referenceId }); // 202, not 409: nothing was created
    }
    expect(sim.transactions).toHaveLength(4);
  });

  it('the public client honours the Retry-After: every status() succeeds, within the cap', async () => {
    const sim = createSimulator({ settleMs: 0, limits: { lookupsPerSecond: 2 } });
    const momo = sim.client();
    const deposits = await Promise.all(
      Array.from({ length: 4 }, () => momo.disbursement.deposit(body)),
    );
    const statuses = await Promise.all(deposits.map((d) => d.status()));
    expect(statuses.map((s) => s.status)).toEqual(Array(4).fill('SUCCESSFUL'));
    expect(limited(sim, 'lookups')).toBeGreaterThan(0);
    // What the simulator served never exceeded 2 in any second.
    const served = sim.requests.filter((r) => r.method === 'GET' && !r.limited).map((r) => r.at);
    expect(served).toHaveLength(4);
    for (const [i, at] of served.entries()) {
      expect(served.filter((t) => t > at - 1_000 && t <= at).length, `lookup ${i}`).toBeLessThan(3);
    }
  });

  it('the /mm/ routes answer the cap in the standard-style error format', async () => {
    const sim = createSimulator({ limits: { lookupsPerSecond: 1 } });
    const momo = sim.client({ maxRetries: 0 });
    const calls = [1, 2].map(() => momo.collection.getAccountStatus('msisdn', '46733123999'));
    const [, second] = await Promise.allSettled(calls);
    expect(second).toMatchObject({
      status: 'rejected',
      reason: {
        status: 429,
        code: 'RateLimitError',
        category: 'BusinessRule',
        retryAfterMs: 1_000,
      },
    });
  });

  it('the control and page routes are never counted; reset() clears the windows', async () => {
    const sim = createSimulator({ limits: { lookupsPerSecond: 1 } });
    const server = await sim.listen();
    try {
      for (let i = 0; i < 3; i++) {
        expect((await fetch(`${server.url}/_simulator/state`)).status).toBe(200);
      }
      expect((await lookups(sim, 2)).passed).toBe(1);
      const state = await (await fetch(`${server.url}/_simulator/state`)).json();
      expect(state.rateLimited).toEqual({ lookups: 1, creates: 0 });
      sim.reset();
      expect((await lookups(sim, 1)).passed).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('every recorded request carries the time it was received, in order', async () => {
    const sim = createSimulator();
    const before = Date.now();
    const momo = sim.client();
    await momo.disbursement.getBalance();
    await momo.disbursement.deposit(body);
    await momo.collection.getBalance();
    const after = Date.now();
    const times = sim.requests.map((r) => r.at);
    expect(times.length).toBeGreaterThanOrEqual(4);
    for (const [i, at] of times.entries()) {
      expect(at).toBeGreaterThanOrEqual(i === 0 ? before : (times[i - 1] ?? 0));
      expect(at).toBeLessThanOrEqual(after);
    }
  });

  it.each([
    [{ lookupsPerSecond: 0 }, 'limits.lookupsPerSecond'],
    [{ lookupsPerSecond: Number.NaN }, 'limits.lookupsPerSecond'],
    [{ createsPerSecond: Number.POSITIVE_INFINITY }, 'limits.createsPerSecond'],
    [{ createsPerSecond: 2.5 }, 'limits.createsPerSecond'],
    [{ lookupsPerSecond: '10' }, 'limits.lookupsPerSecond'],
    [{ lookups: 10 }, 'limits.lookups'],
    [10, 'limits'],
  ])('a bad limits option %j is a ValidationError naming %s', (limits, field) => {
    const make = () => createSimulator({ limits: limits as never });
    expect(make).toThrow(ValidationError);
    expect(make).toThrow(expect.objectContaining({ field }));
  });
});
