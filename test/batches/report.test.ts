import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchStore } from 'momo-partner-sdk';
import { Batches, fileBatchStore, memoryBatchStore } from 'momo-partner-sdk/batches';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSimulator } from './harness';
import { expectReportAsRun, expectUnknownBatch } from './report-support';

// DESIGN 10.5: `new Batches(momo).report(batch, { store })`, the report as `run` returns
// it, read from the store alone: no request reaches the provider.
const h = useSimulator();

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'momo-report-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Records items by the store contract alone, as an engine's job or a crashed run leaves them. */
async function recordUnfinished(store: BatchStore, id: string): Promise<void> {
  const handle = await store.open(id);
  const write = async (key: string, status?: 'SENT' | 'SUCCESSFUL', delivered?: false) => {
    const token = (await handle.claim(key, 'test-owner', 60_000)) as string;
    const intent = {
      key,
      operation: 'disbursement.transfer',
      fingerprint: `f-${key}`,
      referenceId: `ref-${key}`,
    };
    await handle.recordIntent(intent, token);
    if (status === undefined) return;
    const outcome =
      status === 'SENT' ? { status } : { status, financialTransactionId: `ft-${key}` };
    await handle.recordOutcome(
      key,
      delivered === false ? { ...outcome, delivered } : outcome,
      token,
    );
  };
  await write('intent-only');
  await write('sent', 'SENT');
  await write('owed-hook', 'SUCCESSFUL', false);
  await write('paid', 'SUCCESSFUL');
}

describe('Batches.report on the memory store', () => {
  it("is the run's report, read without a request", async () => {
    const store = memoryBatchStore();
    await expectReportAsRun(h, store, store);
  });

  it('an unknown batch, or one opened with nothing recorded, is a ValidationError naming it', async () => {
    const store = memoryBatchStore();
    await expectUnknownBatch(h, store, 'no-such-batch');
    await store.open('opened-only');
    await expectUnknownBatch(h, store, 'opened-only');
  });

  it('items not final are UNRESOLVED, saying why, as a run that could not end them reports them', async () => {
    const store = memoryBatchStore();
    await recordUnfinished(store, 'jobs');
    const report = await new Batches(h.client()).report('jobs', { store });
    expect(report.items.map((i) => [i.key, i.referenceId, i.status, i.reason])).toEqual([
      [
        'intent-only',
        'ref-intent-only',
        'UNRESOLVED',
        expect.stringMatching(/not known to be sent/),
      ],
      ['sent', 'ref-sent', 'UNRESOLVED', expect.stringMatching(/not final yet/)],
      [
        'owed-hook',
        'ref-owed-hook',
        'UNRESOLVED',
        expect.stringMatching(/^SUCCESSFUL, its onItemSettled not run/),
      ],
      ['paid', 'ref-paid', 'SUCCESSFUL', undefined],
    ]);
    expect(report.items[3]?.financialTransactionId).toBe('ft-paid');
    expect(report.summary).toMatchObject({ total: 4, successful: 1, unresolved: 3 });
    expect(h.sim.requests).toEqual([]);
  });
});

describe('Batches.report on the file store', () => {
  it("is the run's report, read by another process (a new store over the folder) without a request", async () => {
    await expectReportAsRun(h, fileBatchStore(dir), fileBatchStore(dir));
  });

  it('an unknown batch is a ValidationError naming it, and leaves no file behind', async () => {
    await expectUnknownBatch(h, fileBatchStore(dir), 'no-such-batch');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('items not final read back UNRESOLVED from the file', async () => {
    await recordUnfinished(fileBatchStore(dir), 'jobs');
    const report = await new Batches(h.client()).report('jobs', { store: fileBatchStore(dir) });
    expect(report.items.map((i) => i.status)).toEqual([
      'UNRESOLVED',
      'UNRESOLVED',
      'UNRESOLVED',
      'SUCCESSFUL',
    ]);
    expect(h.sim.requests).toEqual([]);
  });
});
