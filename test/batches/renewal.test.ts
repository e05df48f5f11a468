import type { BatchClaimToken, BatchHandle, BatchStore } from 'momo-partner-sdk';
import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAYEE, row, useSimulator } from './harness';

const h = useSimulator();
const LEASE_MS = 900;

interface Claim {
  at: number;
  owner: string;
  token: BatchClaimToken | undefined;
}

/**
 * A partner's store: the memory store with a short lease of its own (as a shared store
 * sets one), telling the test each claim the runner makes.
 */
function shortLeaseStore(onClaim: (claim: Claim) => void) {
  const memory = memoryBatchStore();
  let opened: BatchHandle | undefined;
  const store: BatchStore = {
    async open(id) {
      const inner = await memory.open(id);
      opened = inner;
      return {
        id: inner.id,
        leaseMs: LEASE_MS,
        records: () => inner.records(),
        get: (key) => inner.get(key),
        async claim(key, owner) {
          const token = await inner.claim(key, owner, LEASE_MS);
          onClaim({ at: Date.now(), owner, token });
          return token;
        },
        release: (key, token) => inner.release(key, token),
        recordIntent: (intent, token) => inner.recordIntent(intent, token),
        recordOutcome: (key, outcome, token) => inner.recordOutcome(key, outcome, token),
        close: () => inner.close(),
      };
    },
  };
  return { store, handle: () => opened as BatchHandle };
}

/** Resolves with the n-th claim the runner made (bounded: a runner that never renews fails). */
function claims() {
  const seen: Claim[] = [];
  const waiters: { n: number; resolve(c: Claim): void }[] = [];
  const onClaim = (claim: Claim) => {
    seen.push(claim);
    for (const w of waiters.filter((w) => w.n <= seen.length)) w.resolve(seen[w.n - 1] as Claim);
  };
  const nth = (n: number) =>
    new Promise<Claim>((resolve, reject) => {
      if (seen.length >= n) return resolve(seen[n - 1] as Claim);
      const timer = setTimeout(() => reject(new Error(`no claim #${n} (no renewal)`)), 5_000);
      waiters.push({
        n,
        resolve: (c) => {
          clearTimeout(timer);
          resolve(c);
        },
      });
    });
  return { seen, onClaim, nth };
}

function signalled() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve: () => resolve() };
}

describe('a batch item whose wait outlasts the lease', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps its claim: the runner renews it at a third of the lease until the item settles', async () => {
    const c = claims();
    const { store, handle } = shortLeaseStore(c.onClaim);
    const sent = signalled();
    const run = new Batches(h.client()).run([row('k1', PAYEE.pending)], {
      id: 'b',
      store,
      onProgress: (p) => p.sent === 1 && sent.resolve(),
    });
    const first = await c.nth(1);
    await sent.promise;
    for (let n = 2; n <= 5; n++) {
      const renewal = await c.nth(n); // every third of the lease
      expect(renewal.owner).toBe(first.owner);
      expect(renewal.token).toBeDefined();
    }
    // A whole lease after the first claim: still the runner's.
    expect(Date.now() - first.at).toBeGreaterThanOrEqual(LEASE_MS);
    expect(await handle().claim('k1', 'intruder', LEASE_MS)).toBeUndefined();

    const [transaction] = h.sim.transactions;
    h.sim.settle(transaction?.referenceId as string, 'SUCCESSFUL');
    const report = await run;
    expect(report.items[0]?.status).toBe('SUCCESSFUL');
    expect((await handle().get('k1'))?.outcome?.status).toBe('SUCCESSFUL');
    // Settled: the claim is given back at once.
    expect(await handle().claim('k1', 'next-run', LEASE_MS)).toBeDefined();
  });

  it('records nothing more once another owner took its claim over, and reports what its new owner recorded', async () => {
    const c = claims();
    const { store, handle } = shortLeaseStore(c.onClaim);
    const sent = signalled();
    const run = new Batches(h.client()).run([row('k1', PAYEE.pending)], {
      id: 'b',
      store,
      waitTimeoutMs: 4_000,
      onProgress: (p) => p.sent === 1 && sent.resolve(),
    });
    const first = await c.nth(1);
    await sent.promise;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() }); // the store's clock; timers stay real
    vi.setSystemTime(Date.now() + LEASE_MS + 1); // the runner stalled past its lease
    const intruder = await handle().claim('k1', 'intruder', LEASE_MS);
    expect(intruder).toBeDefined();

    // Its next renewal is refused: its wait ends, and it awaits the item's new owner.
    await vi.waitFor(() =>
      expect(c.seen.filter((x) => x.owner === first.owner).at(-1)?.token).toBeUndefined(),
    );
    expect((await handle().get('k1'))?.outcome).toEqual({ status: 'SENT' });
    // The runner did not release the intruder's claim; the intruder still records.
    expect(await handle().claim('k1', 'third', LEASE_MS)).toBeUndefined();
    const outcome = {
      status: 'SUCCESSFUL' as const,
      financialTransactionId: 'ftid-of-the-intruder',
    };
    expect(await handle().recordOutcome('k1', outcome, intruder as string)).toBe(true);

    const report = await run; // the whole batch: the intruder's outcome, as it recorded it
    expect(report.items[0]).toMatchObject({ key: 'k1', ...outcome });
    expect(report.items[0]?.reason).toBeUndefined();
    expect((await handle().get('k1'))?.outcome).toEqual(outcome);
    expect(h.transferPosts()).toHaveLength(1);
  });
});
