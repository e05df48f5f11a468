/**
 * DESIGN 10.1, "one call's fault stays its own": 200 creating calls, 25 at a time, as a
 * partner with `timeoutMs: 500, maxRetries: 3` would make them, through the real
 * transport and a loopback proxy in front of the simulator that injects the provider's
 * faults. The provider side (simulator, proxy and the scenario's fault decisions,
 * test/support/fault-scenarios.ts) runs in a process of its own, as the provider does in
 * the world: on a loaded machine one event loop serving client, proxy and simulator
 * answered late enough to time attempts out. What the assertions need of the provider
 * (its transactions) is read back over IPC. Outcomes are asserted, never durations (the
 * pauses are real seconds). Each takes minutes: every 429 pauses every creating call for
 * its second, and the rate the client learns after a 429 falls toward 1/s under refusals
 * that come whatever the rate (docs/assumptions.md, G8), hence the generous bound.
 */
import { isRateLimitError, isServerError, MomoClient } from 'momo-partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { FaultProviderProcess } from '../support/fault-provider-process';
import type { FaultScenario } from '../support/fault-scenarios';
import type { HeldTransaction } from '../support/workers/provider';

const CALLS = 200;
const AT_ONCE = 25;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A simulator behind a fault proxy, in a process of its own, and a client of the proxy. */
async function startProvider(scenario: FaultScenario) {
  const provider = await FaultProviderProcess.start({ scenario, calls: CALLS, settleMs: 10 });
  closers.push(() => provider.close());
  const momo = new MomoClient({ ...provider.client, timeoutMs: 500, maxRetries: 3 });
  return { provider, momo };
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

/** Transactions the provider holds per externalId: never more than one per call. */
function createdTwice(transactions: readonly HeldTransaction[]): string[] {
  const count = new Map<string, number>();
  for (const tx of transactions) {
    const id = tx.key ?? tx.referenceId;
    count.set(id, (count.get(id) ?? 0) + 1);
  }
  return [...count].filter(([, n]) => n > 1).map(([id]) => id);
}

describe('a 429 on one call does not fail the others', () => {
  it('the 429 storm: every 9th request answered 429 Retry-After: 1, continuing', async () => {
    const { provider, momo } = await startProvider('storm');
    const outcomes = await depositAll(momo);
    const failed = outcomes.filter((o) => !o.ok).map((o) => (o as { error: unknown }).error);
    // A call fails only when the provider refused each of its four sends (never unsent).
    for (const error of failed) {
      expect(isRateLimitError(error), String(error)).toBe(true);
      expect(String(error)).not.toMatch(/Nothing was sent|free request slot/);
    }
    expect(failed.length).toBeLessThanOrEqual(2);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(CALLS - failed.length);
    const transactions = await provider.transactions();
    expect(createdTwice(transactions)).toEqual([]);
    expect(transactions.length).toBe(CALLS - failed.length);
  }, 600_000);
});

describe('a fault mix: drops, late answers, 503s, one call in nine answered 429', () => {
  it('every call with transient faults ends accepted; the 503-every-attempt call ends ServerError 503', async () => {
    const { provider, momo } = await startProvider('mix');
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
    const transactions = await provider.transactions();
    expect(createdTwice(transactions)).toEqual([]);
    expect(transactions.length).toBe(CALLS - 1);
  }, 600_000);
});
