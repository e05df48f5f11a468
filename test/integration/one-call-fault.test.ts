/**
 * DESIGN 10.1, "one call's fault stays its own": 200 creating calls, 25 at a time, as a
 * partner with `timeoutMs: 500, maxRetries: 3` would make them, through the real
 * transport and a loopback proxy in front of the simulator that injects the provider's
 * faults. Outcomes are asserted, never durations (the pauses are real seconds). Each
 * takes minutes: every 429 pauses every creating call for its second, and the rate the
 * client learns after a 429 falls toward 1/s under refusals that come whatever the rate
 * (docs/assumptions.md, G8), hence the generous bound.
 */
import {
  isRateLimitError,
  isServerError,
  MomoClient,
  type MomoClientOptions,
} from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxiedRequest, type ProxyFault, startFaultProxy } from '../support/fault-proxy';

const CALLS = 200;
const AT_ONCE = 25;
const DEPOSIT = '/disbursement/v1_0/deposit';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A simulator behind a fault proxy, and a client of the proxy. */
async function provider(
  decide: (request: ProxiedRequest) => ProxyFault | undefined,
  options: Partial<MomoClientOptions> = {},
) {
  const sim = createSimulator({ settleMs: 10 });
  const server = await sim.listen();
  closers.push(() => server.close());
  const proxy = await startFaultProxy(server.url, decide);
  closers.push(() => proxy.close());
  const momo = new MomoClient({
    ...sim.credentials,
    baseUrl: proxy.baseUrl,
    timeoutMs: 500,
    maxRetries: 3,
    ...options,
  });
  return { sim, proxy, momo };
}

const body = (i: number) => ({
  amount: '5',
  currency: 'EUR',
  externalId: `order-${i}`,
  payee: { partyIdType: 'MSISDN' as const, partyId: '46700000001' },
});

/** Runs `CALLS` deposits `AT_ONCE` at a time: each one's result or error, by index. */
async function depositAll(momo: MomoClient) {
  const outcomes: ({ ok: true; referenceId: string } | { ok: false; error: unknown })[] = [];
  let next = 0;
  const worker = async () => {
    while (next < CALLS) {
      const i = next++;
      outcomes[i] = await momo.disbursement.deposit(body(i)).then(
        (accepted) => ({ ok: true as const, referenceId: accepted.referenceId }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  return outcomes;
}

/** The call index of a deposit request (its body's externalId), -1 for anything else. */
function callOf(request: ProxiedRequest): number {
  if (request.method !== 'POST' || !request.path.startsWith(DEPOSIT)) return -1;
  const match = /"externalId":"order-(\d+)"/.exec(request.body);
  return match ? Number(match[1]) : -1;
}

/** Transactions the simulator holds per externalId: never more than one per call. */
function createdTwice(sim: ReturnType<typeof createSimulator>): string[] {
  const count = new Map<string, number>();
  for (const tx of sim.transactions) {
    const id = String(
      (tx as { body?: { externalId?: unknown } }).body?.externalId ?? tx.referenceId,
    );
    count.set(id, (count.get(id) ?? 0) + 1);
  }
  return [...count].filter(([, n]) => n > 1).map(([id]) => id);
}

describe('a 429 on one call does not fail the others', () => {
  it('the 429 storm: every 9th request answered 429 Retry-After: 1, continuing', async () => {
    let deposits = 0;
    const { sim, momo } = await provider((request) => {
      if (callOf(request) < 0) return undefined;
      deposits++;
      return deposits % 9 === 0
        ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } }
        : undefined;
    });
    const outcomes = await depositAll(momo);
    const failed = outcomes.filter((o) => !o.ok).map((o) => (o as { error: unknown }).error);
    // A call fails only when the provider refused each of its four sends (never unsent).
    for (const error of failed) {
      expect(isRateLimitError(error), String(error)).toBe(true);
      expect(String(error)).not.toMatch(/Nothing was sent|free request slot/);
    }
    expect(failed.length).toBeLessThanOrEqual(2);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(CALLS - failed.length);
    expect(createdTwice(sim)).toEqual([]);
    expect(sim.transactions.length).toBe(CALLS - failed.length);
  }, 600_000);
});

/** Each call's own fault by its index: at most one, on its first send; call 199 503s every time. */
function faultMix() {
  const sends = new Map<number, number>();
  return (request: ProxiedRequest): ProxyFault | undefined => {
    const call = callOf(request);
    if (call < 0) return undefined;
    const send = sends.get(call) ?? 0;
    sends.set(call, send + 1);
    if (call === CALLS - 1) return { kind: 'status', status: 503 };
    if (send > 0) return undefined;
    switch (call % 9) {
      case 0:
        return { kind: 'status', status: 429, headers: { 'retry-after': '1' } };
      case 1:
        return { kind: 'status', status: 503 };
      case 2:
        return { kind: 'drop-before' };
      case 3:
        return { kind: 'drop-after' };
      case 4:
        return { kind: 'late', ms: 1_500 };
      default:
        return undefined;
    }
  };
}

describe('a fault mix: drops, late answers, 503s, one call in nine answered 429', () => {
  it('every call with transient faults ends accepted; the 503-every-attempt call ends ServerError 503', async () => {
    const { sim, momo } = await provider(faultMix());
    const outcomes = await depositAll(momo);
    const last = outcomes[CALLS - 1];
    expect(last?.ok).toBe(false);
    const error = (last as { error: unknown }).error;
    expect(isServerError(error), String(error)).toBe(true);
    expect(error).toMatchObject({ status: 503 });
    const others = outcomes.slice(0, CALLS - 1);
    expect(others.filter((o) => !o.ok).map((o) => String((o as { error: unknown }).error))).toEqual(
      [],
    );
    expect(createdTwice(sim)).toEqual([]);
    expect(sim.transactions.length).toBe(CALLS - 1);
  }, 600_000);
});
