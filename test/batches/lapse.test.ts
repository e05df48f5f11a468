/**
 * A claim whose lease ran out unrenewed (the store could not be reached) is dropped: the
 * run writes nothing more under it, claims the item again once it can, and ends it, paid
 * once (docs/architecture.md, "one leased and fenced claim"; docs/assumptions.md, PC3).
 */
import type { BatchHandle, BatchStore } from 'momo-partner-sdk';
import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { describe, expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from './harness';

const h = useSimulator(1_000); // each transfer final 1 s after acceptance
const LEASE_MS = 600;
const OUTAGE_MS = 3_000; // longer than a lease and the settle time: the outcome comes in it
/**
 * A write after its lease ran out, by the store's clock, is one under a lapsed lease. No
 * slack is needed however loaded the machine: the runner counts a lease from when it
 * asked for the claim or its renewal (never later than the store granted it), and checks
 * it in the same turn of the event loop as the write reaches the store (below).
 */
const TOLERANCE_MS = 0;

/**
 * A partner's store over the memory store (whose writes check the token, not the lease's
 * time: the runner must stop on its own) whose `renew` fails for its first 3 s (its
 * claims and writes work), and that tells every write made under a lease that had run out.
 */
function flakyStore() {
  const late: string[] = [];
  const claims: string[] = [];
  const memory = memoryBatchStore();
  const store: BatchStore = {
    async open(id) {
      const inner = await memory.open(id);
      const openedAt = Date.now();
      const down = () => Date.now() < openedAt + OUTAGE_MS;
      const leaseOf = new Map<string, number>(); // token -> until
      const granted = (key: string, token: string | undefined) => {
        if (token !== undefined) {
          claims.push(key);
          leaseOf.set(token, Date.now() + LEASE_MS);
        }
        return token;
      };
      const check = (what: string, token: string) => {
        const until = leaseOf.get(token) ?? 0;
        if (Date.now() > until + TOLERANCE_MS) late.push(`${what} ${Date.now() - until} ms late`);
      };
      const handle: BatchHandle = {
        id: inner.id,
        leaseMs: LEASE_MS,
        records: () => inner.records(),
        get: (key) => inner.get(key),
        claim: async (key, owner, leaseMs) => granted(key, await inner.claim(key, owner, leaseMs)),
        async renew(claims, leaseMs) {
          if (down()) throw new Error('store unreachable');
          const kept = await (inner.renew as NonNullable<BatchHandle['renew']>)(claims, leaseMs);
          for (const token of kept) leaseOf.set(token, Date.now() + LEASE_MS);
          return kept;
        },
        release: (key, token) => inner.release(key, token),
        async recordIntent(intent, token) {
          check('recordIntent', token);
          return inner.recordIntent(intent, token);
        },
        async recordOutcome(key, outcome, token) {
          check(`recordOutcome ${outcome.status}`, token);
          return inner.recordOutcome(key, outcome, token);
        },
        close: () => inner.close(),
      };
      return handle;
    },
  };
  return { store, late, claims };
}

describe('a claim that lapsed unrenewed', () => {
  it('is dropped: nothing written under it; the item is claimed again and ends, sent once', async () => {
    const momo = h.client();
    const { store, late, claims } = flakyStore();
    const report = await new Batches(momo).run([row('a', PAYEE.ok), row('b', PAYEE.ok)], {
      id: 'lapsed',
      store,
    });
    expect(report.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL']);
    expect(late).toEqual([]);
    // Each claimed again after its lease lapsed in the outage (and kept once renewals worked).
    expect(claims.filter((key) => key === 'a').length).toBeGreaterThanOrEqual(2);
    expect(claims.filter((key) => key === 'b').length).toBeGreaterThanOrEqual(2);
    // Sent under one reference id each: a lapse on a loaded machine may re-send an item
    // whose SENT was not recorded yet, under the same id (the provider answers 409, and the
    // run adopts it): never a second payment.
    expect(new Set(h.transferPosts()).size).toBe(2);
  }, 30_000);
});
