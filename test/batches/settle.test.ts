import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { describe, expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from './harness';

// Every transfer settles 300 ms after the simulator accepts it.
const h = useSimulator(300);

describe('new Batches(momo).run learns when the provider settles', () => {
  it('looks each row up about once: its first lookup waits for the settle time learned from rows already settled', async () => {
    // Polling that would look a row up at once, then every 100-200 ms: about 4 lookups per
    // row if each wait started at acceptance.
    const momo = h.client({ polling: { initialDelayMs: 100, maxDelayMs: 200, timeoutMs: 10_000 } });
    const rows = Array.from({ length: 100 }, (_, i) => row(`r${i}`, PAYEE.ok));

    const report = await new Batches(momo).run(rows, {
      id: 'learned-settle',
      store: memoryBatchStore(),
      concurrency: 100,
    });

    expect(report.summary.successful).toBe(100);
    expect(h.transferPosts()).toHaveLength(100);
    // The first rows probe (one 100 ms step apart) until one is seen SUCCESSFUL; the others
    // wait that long after their acceptance, and their first lookup finds them final.
    expect(h.transferLookups()).toBeLessThanOrEqual(120);
  });
});
