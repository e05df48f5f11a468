import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchRecord, BatchStore } from 'momo-partner-sdk';
import { Batches, fileBatchStore, memoryBatchStore } from 'momo-partner-sdk/batches';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from './harness';

const h = useSimulator();
const SECRET = 'partner-batch-secret-0123456789';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'momo-rerun-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function recorded(store: BatchStore, id: string): Promise<BatchRecord[]> {
  const out: BatchRecord[] = [];
  for await (const r of (await store.open(id)).records()) out.push(r);
  return out;
}

/** How many transactions the server holds per externalId (a row paid twice shows as 2). */
function createdPerRow(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const t of h.sim.transactions) {
    const key = (t.body as { externalId: string }).externalId;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const rows = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'].map((k, i) =>
  row(k, i === 4 ? PAYEE.rejected : PAYEE.ok),
);

describe('a batch run again', () => {
  it('after an interrupted run sends only what was never sent, under the same reference ids', async () => {
    const controller = new AbortController();
    const first = new Batches(h.client()).run(rows, {
      id: 'payroll',
      store: fileBatchStore(dir),
      concurrency: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.sent >= 2) controller.abort(new Error('operator stopped the run'));
      },
    });
    await expect(first).rejects.toThrow('operator stopped the run');
    const before = await recorded(fileBatchStore(dir), 'payroll');
    const sentBefore = before.filter((r) => r.outcome !== undefined);
    expect(sentBefore.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(rows.length);
    const postsBefore = h.transferPosts().length;

    // Another process (a new store object over the same folder) runs the batch again.
    const report = await new Batches(h.client()).run(rows, {
      id: 'payroll',
      store: fileBatchStore(dir),
    });

    expect(report.items.map((i) => i.status)).toEqual([
      'SUCCESSFUL',
      'SUCCESSFUL',
      'SUCCESSFUL',
      'SUCCESSFUL',
      'FAILED',
      'SUCCESSFUL',
    ]);
    expect(createdPerRow()).toEqual({ r1: 1, r2: 1, r3: 1, r4: 1, r5: 1, r6: 1 });
    for (const r of before) {
      expect(report.items.find((i) => i.key === r.key)?.referenceId).toBe(r.referenceId);
    }
    // What the provider had already was looked up, not sent again.
    const postsAgain = h.transferPosts().slice(postsBefore);
    for (const r of sentBefore) expect(postsAgain).not.toContain(r.referenceId);
  });

  it('once finished, reports from the store: nothing sent, nothing looked up', async () => {
    const store = memoryBatchStore();
    const first = await new Batches(h.client()).run(rows, { id: 'done', store });
    const requests = h.sim.requests.length;
    const again = await new Batches(h.client()).run(rows, { id: 'done', store });
    expect(again).toEqual(first);
    expect(h.sim.requests.length).toBe(requests);
  });

  it('with its store lost, sends every row under its derived id: the 409s are looked up, nothing is paid twice', async () => {
    const first = await new Batches(h.client()).run(rows, {
      id: 'payroll',
      store: memoryBatchStore(),
      secret: SECRET,
    });
    expect(h.sim.transactions).toHaveLength(6);

    const lost = memoryBatchStore(); // the state folder deleted, or another machine
    const again = await new Batches(h.client()).run(rows, {
      id: 'payroll',
      store: lost,
      secret: SECRET,
    });

    expect(again.items).toEqual(first.items);
    expect(createdPerRow()).toEqual({ r1: 1, r2: 1, r3: 1, r4: 1, r5: 1, r6: 1 });
    const posts = h.transferPosts();
    expect(posts).toHaveLength(12); // each row sent again, and refused as a duplicate
    expect(new Set(posts).size).toBe(6);
    // By key: a store lists records in the order they were recorded, which items sent
    // concurrently do not keep.
    const statuses = (await recorded(lost, 'payroll')).map((r) => [r.key, r.outcome?.status]);
    expect(Object.fromEntries(statuses)).toEqual({
      r1: 'SUCCESSFUL',
      r2: 'SUCCESSFUL',
      r3: 'SUCCESSFUL',
      r4: 'SUCCESSFUL',
      r5: 'FAILED',
      r6: 'SUCCESSFUL',
    });
  });

  it('derives ids from (batch id, key) and the secret: the same on every run, different per key, batch and secret', async () => {
    const ids = async (id: string, secret: string) =>
      (
        await new Batches(h.client()).run(rows.slice(0, 2), {
          id,
          store: memoryBatchStore(),
          secret,
          dryRun: true,
        })
      ).items.map((i) => i.referenceId);
    const [a1, a2] = await ids('b1', SECRET);
    expect(a1).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await ids('b1', SECRET)).toEqual([a1, a2]);
    expect(a1).not.toBe(a2);
    expect(await ids('b2', SECRET)).not.toContain(a1);
    expect(await ids('b1', `${SECRET}-rotated`)).not.toContain(a1);
  });

  it('keeps the ids earlier versions derived: a re-run after an upgrade finds what it sent', async () => {
    const report = await new Batches(h.client()).run(rows.slice(0, 1), {
      id: 'b1',
      store: memoryBatchStore(),
      secret: SECRET,
      dryRun: true,
    });
    // HMAC-SHA256(secret, 'momo-batch:v1' + JSON ["b1","r1"]), its first 16 bytes as a
    // UUID v4 (docs/batches.md): the value the SDK has derived since the first release.
    expect(report.items[0]?.referenceId).toBe('e953b0a6-f6b5-4c01-bd07-65bb35837977');
  });

  it('REJECTS a used key whose body changed, and sends nothing for it', async () => {
    await new Batches(h.client()).run([row('k1', PAYEE.ok, '10')], {
      id: 'edited',
      store: fileBatchStore(dir),
    });
    const posts = h.transferPosts().length;
    const report = await new Batches(h.client()).run(
      [row('k1', PAYEE.ok, '11'), row('k2', PAYEE.ok)],
      {
        id: 'edited',
        store: fileBatchStore(dir),
      },
    );
    expect(report.items.map((i) => [i.key, i.status])).toEqual([
      ['k1', 'REJECTED'],
      ['k2', 'SUCCESSFUL'],
    ]);
    expect(report.items[0]?.reason).toMatch(/^key: "k1" was used in this batch for another body/);
    expect(h.transferPosts()).toHaveLength(posts + 1);
    expect(createdPerRow()).toEqual({ k1: 1, k2: 1 });
  });
});
