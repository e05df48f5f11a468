import type { BatchStore } from 'momo-partner-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sweepInterval, sweepTask } from '../../src/graphile-worker/sweep';
import type { GraphileJobHelpers } from '../../src/graphile-worker/types';

/**
 * docs/assumptions.md GW2: a batch's sweep runs at most a fifth of the store's lease
 * apart, so a dead worker's item ends final within 1.2 leases whatever the lease. The
 * sweep's successor is read off graphile-worker's `addJob` (its helpers stood in by a
 * recorder: the engine, not the SDK), on a frozen clock.
 */
function recordingHelpers() {
  const added: { identifier: string; runAt?: Date | undefined }[] = [];
  const helpers = {
    job: { id: '1', attempts: 1 },
    async addJob(identifier: string, _payload: unknown, spec?: { runAt?: Date }) {
      added.push({ identifier, runAt: spec?.runAt });
      return {};
    },
    async withPgClient<T>(callback: (client: never) => Promise<T>): Promise<T> {
      // The batch's jobs, as graphile-worker's tables hold them: one still running.
      const client = {
        query: async () => ({
          rows: [{ identifier: 'momo:pay', key: 'k', payload: {}, stale: false }],
        }),
      };
      return callback(client as never);
    },
  } as unknown as GraphileJobHelpers;
  return { helpers, added };
}

describe('the graphile-worker sweep interval (GW2)', () => {
  afterEach(() => vi.useRealTimers());

  it('is the option, capped at a fifth of the lease, never under 100 ms', () => {
    expect(sweepInterval(3_000, 15_000)).toBe(3_000);
    expect(sweepInterval(3_000, 5_000)).toBe(1_000);
    expect(sweepInterval(10_000, 15_000)).toBe(3_000);
    expect(sweepInterval(3_000, 200)).toBe(100);
  });

  it.each([
    [15_000, 3_000],
    [5_000, 1_000],
  ])('a store with a %i ms lease: the next sweep is queued %i ms on', async (leaseMs, next) => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    // A store with that lease (a Redis or PostgreSQL one's `leaseMs` option): no job is
    // stale here, so the sweep only reads the lease.
    const store = { open: async () => ({ leaseMs }) } as unknown as BatchStore;
    const sweep = sweepTask({ store, workerSchema: 'gw', everyMs: 3_000 });
    const { helpers, added } = recordingHelpers();
    await sweep({ batch: 'payroll' }, helpers);
    const successor = added.find((a) => a.identifier === 'momo:sweep');
    expect(successor?.runAt?.getTime()).toBe(1_000_000 + next);
  });
});
