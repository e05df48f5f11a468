import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isValidationError } from 'momo-partner-sdk';
import { Batches, fileBatchStore, memoryBatchStore } from 'momo-partner-sdk/batches';
import { afterAll, describe, expect, it } from 'vitest';
import {
  runsAThrowingHookAgainOnTheNextRun,
  settlesEachItemOnceAfterItsOutcome,
} from '../support/item-settled';
import { row, useSimulator } from './harness';

const h = useSimulator();
const dir = mkdtempSync(join(tmpdir(), 'momo-settled-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('batches.run({ onItemSettled })', () => {
  for (const [name, store] of [
    ['memoryBatchStore', () => memoryBatchStore()],
    ['fileBatchStore', () => fileBatchStore(join(dir, `state-${Math.random()}`))],
  ] as const) {
    it(`${name}: runs once per settled item, after its outcome is recorded`, async () => {
      await settlesEachItemOnceAfterItsOutcome(h, store());
    });
    it(`${name}: a throw leaves the item UNRESOLVED; the next run runs it again`, async () => {
      await runsAThrowingHookAgainOnTheNextRun(h, store());
    });
  }

  it('fileBatchStore: a delivery owed when the process ended is run by the next process', async () => {
    // The state a crash between the outcome's write and the hook's end leaves behind.
    const state = join(dir, 'crashed');
    const first = h.client();
    const report = await new Batches(first).run([row('r1', '46733123999')], {
      id: 'b',
      store: fileBatchStore(state),
      onItemSettled: () => {
        throw new Error('killed');
      },
    });
    expect(report.items[0]?.status).toBe('UNRESOLVED');
    const settled: string[] = [];
    const next = await new Batches(h.client()).run([row('r1', '46733123999')], {
      id: 'b',
      store: fileBatchStore(state), // a new process over the same folder
      onItemSettled: (item) => void settled.push(`${item.key} ${item.status}`),
    });
    expect(next.items[0]?.status).toBe('SUCCESSFUL');
    expect(settled).toEqual(['r1 SUCCESSFUL']);
  });

  it('refuses an onItemSettled that is not a function, naming it', async () => {
    const run = new Batches(h.client()).run([], {
      id: 'b',
      store: memoryBatchStore(),
      onItemSettled: 'yes' as never,
    });
    await expect(run).rejects.toSatisfy(isValidationError);
    await expect(run).rejects.toThrow(/onItemSettled/);
  });
});
