import type { BatchHandle, BatchStore } from 'momo-partner-sdk';
import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { describe, expect, it, vi } from 'vitest';
import { PAYEE, row, useSimulator } from './harness';

const h = useSimulator();
/** The lease of the "other process" in these tests: short, so that it lapses quickly. */
const LEASE_MS = 900;

/**
 * Another process's view of a memory store, with a short lease of its own, that can die:
 * once `die()` is called it writes nothing more and releases nothing (as after a SIGKILL),
 * so its claims stay until their lease lapses.
 */
function mortalStore(memory: BatchStore) {
  let dead = false;
  const store: BatchStore = {
    async open(id) {
      const inner = await memory.open(id);
      const alive = async <T>(write: () => Promise<T>, otherwise: T): Promise<T> =>
        dead ? otherwise : write();
      return {
        id: inner.id,
        leaseMs: LEASE_MS,
        records: () => inner.records(),
        get: (key) => inner.get(key),
        claim: (key, owner) => alive(() => inner.claim(key, owner, LEASE_MS), undefined),
        release: (key, token) => alive(() => inner.release(key, token), undefined),
        recordIntent: (intent, token) => alive(() => inner.recordIntent(intent, token), undefined),
        recordOutcome: (key, outcome, token) =>
          alive(() => inner.recordOutcome(key, outcome, token), false),
        close: () => inner.close(),
      } satisfies BatchHandle;
    },
  };
  return { store, die: () => (dead = true) };
}

describe('batches.run with items another process holds', () => {
  it('takes over an item whose holder died before recording it, once its claim lapsed, and sends it once', async () => {
    const store = memoryBatchStore();
    const handle = await store.open('payroll');
    // Another process claimed k1 and died before recording anything.
    expect(await handle.claim('k1', 'dead-process', LEASE_MS)).toBeDefined();
    const started = Date.now();
    const report = await new Batches(h.client()).run([row('k1', PAYEE.ok), row('k2', PAYEE.ok)], {
      id: 'payroll',
      store,
    });
    expect(report.summary).toMatchObject({ total: 2, successful: 2, unresolved: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(LEASE_MS - 100); // awaited, not skipped
    expect(new Set(h.transferPosts()).size).toBe(2);
    expect(h.transferPosts()).toHaveLength(2);
  });

  it('waits on an item its dead holder sent (SENT), under its reference id, without sending it again', async () => {
    const memory = memoryBatchStore();
    const other = mortalStore(memory);
    const stop = new AbortController();
    let onSent = () => {};
    const sent = new Promise<void>((resolve) => (onSent = resolve));
    const first = new Batches(h.client()).run([row('k1', PAYEE.pending)], {
      id: 'payroll',
      store: other.store,
      signal: stop.signal,
      onProgress: (p) => p.sent === 1 && onSent(),
    });
    first.catch(() => {});
    await sent;
    other.die(); // SIGKILL: its claim stays until the lease lapses
    stop.abort();
    await expect(first).rejects.toThrow();
    const [posted] = h.transferPosts();
    expect((await (await memory.open('payroll')).get('k1'))?.outcome).toEqual({ status: 'SENT' });

    const report = new Batches(h.client()).run([row('k1', PAYEE.pending)], {
      id: 'payroll',
      store: memory,
    });
    await vi.waitFor(() => expect(h.transferLookups()).toBeGreaterThan(0), { timeout: 5_000 });
    h.sim.settle(posted as string, 'SUCCESSFUL');
    const { items } = await report;
    expect(items[0]).toMatchObject({ key: 'k1', status: 'SUCCESSFUL', referenceId: posted });
    expect(h.transferPosts()).toEqual([posted]); // never sent again
  });

  it('gives every run the whole batch: two runs at once each report every item, each sent once', async () => {
    const store = memoryBatchStore();
    const items = ['a', 'b', 'c', 'd'].map((key) => row(key, PAYEE.pending));
    const runs = [0, 1].map(() => new Batches(h.client()).run(items, { id: 'payroll', store }));
    await vi.waitFor(() => expect(h.sim.transactions).toHaveLength(4), { timeout: 5_000 });
    for (const t of h.sim.transactions) h.sim.settle(t.referenceId, 'SUCCESSFUL');
    const reports = await Promise.all(runs);
    for (const report of reports) {
      expect(report.summary).toMatchObject({ total: 4, successful: 4, unresolved: 0 });
    }
    expect(reports[0]?.items).toEqual(reports[1]?.items);
    expect(new Set(h.transferPosts()).size).toBe(4);
    expect(h.transferPosts()).toHaveLength(4);
  });

  it('ends an item a live process keeps holding once past its waitTimeoutMs, UNRESOLVED', async () => {
    const store = memoryBatchStore();
    const handle = await store.open('payroll');
    await handle.claim('k1', 'busy-process', LEASE_MS);
    const renewing = setInterval(() => void handle.claim('k1', 'busy-process', LEASE_MS), 300);
    try {
      const report = await new Batches(h.client()).run([row('k1', PAYEE.ok), row('k2', PAYEE.ok)], {
        id: 'payroll',
        store,
        waitTimeoutMs: 1_500,
      });
      expect(report.items.map((i) => [i.key, i.status, i.reason])).toEqual([
        ['k1', 'UNRESOLVED', 'claimed by another process'],
        ['k2', 'SUCCESSFUL', undefined],
      ]);
      expect(h.transferPosts()).toHaveLength(1);
    } finally {
      clearInterval(renewing);
    }
  });
});
