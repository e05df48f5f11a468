import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BatchStore, InMemoryJournal, isValidationError } from 'momo-partner-sdk';
import { fileBatchStore, memoryBatchStore } from 'momo-partner-sdk/batches';
import { reconcile } from 'momo-partner-sdk/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEachReported, sendByEveryRoad } from './store-scenario';
import { lookups, type Platform, platform } from './support';

let a: Platform;
let dir = '';

beforeAll(async () => {
  a = await platform();
  dir = await mkdtemp(join(tmpdir(), 'momo-reconcile-stores-'));
});

afterAll(async () => {
  await a.http.close();
  await rm(dir, { recursive: true, force: true });
});

describe('reconcile(momo, books, { journal, batchStore }): what the books lack, twice or unchecked', () => {
  const stores: [string, () => BatchStore][] = [
    ['a memory batch store', () => memoryBatchStore()],
    ['a file batch store', () => fileBatchStore(join(dir, crypto.randomUUID()))],
  ];
  for (const [name, makeStore] of stores) {
    it(`${name} and the journal: a duplicate, an unchecked amount and the payments the books lack, each reported`, async () => {
      const journal = new InMemoryJournal();
      const momo = a.client({ journal });
      const batchStore = makeStore();
      const sent = await sendByEveryRoad(momo, a.sim, batchStore);
      const before = lookups(a.sim).length;

      const result = await reconcile(momo, sent.books, { journal, batchStore });

      expectEachReported(sent, result.items);
      expect(result.summary).toMatchObject({
        total: 5,
        MATCH: 2,
        DUPLICATE: 1,
        MISSING_FROM_BOOKS: 2,
      });
      // Each payment looked up once: the duplicate not again.
      expect(lookups(a.sim).length - before).toBe(4);
      const missingBatchItem = result.items[3]?.record;
      expect(missingBatchItem).toMatchObject({
        source: 'batch',
        batchId: sent.batchId,
        key: 'c',
        operation: 'disbursement.transfer',
        stored: 'SUCCESSFUL',
      });
    });
  }

  it('`batches` and `since` narrow what is listed; without stores, nothing is added', async () => {
    const journal = new InMemoryJournal();
    const momo = a.client({ journal });
    const batchStore = memoryBatchStore();
    const sent = await sendByEveryRoad(momo, a.sim, batchStore);
    const plain = await reconcile(momo, sent.books);
    expect(plain.items.map((item) => item.verdict)).toEqual(['MATCH', 'DUPLICATE', 'MATCH']);

    const otherBatch = await reconcile(momo, sent.books, { batchStore, batches: ['another-day'] });
    expect(otherBatch.summary.MISSING_FROM_BOOKS).toBe(0);
    const later = await reconcile(momo, sent.books, { journal, since: Date.now() + 60_000 });
    expect(later.summary.MISSING_FROM_BOOKS).toBe(0);
    const fromJournal = await reconcile(momo, sent.books, { journal, since: new Date(sent.since) });
    // Every payment the journal holds that the books lack: c and the direct one.
    expect(fromJournal.items.slice(3).map((item) => item.record.referenceId)).toEqual([
      sent.ids.c,
      sent.ids.direct,
    ]);
  });

  it('a store that cannot list what it holds is a ValidationError naming it, nothing looked up', async () => {
    const momo = a.client();
    const before = a.sim.requests.length;
    const own = memoryBatchStore();
    const { batches: _, ...withoutListing } = own;
    const error = await reconcile(
      momo,
      [{ referenceId: crypto.randomUUID(), operation: 'disbursement.transfer' }],
      {
        batchStore: withoutListing,
        journal: { ...new InMemoryJournal(), get: async () => undefined } as never,
      },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isValidationError(error)).toBe(true);
    if (!isValidationError(error)) return;
    expect(error.issues.map((issue) => issue.path)).toEqual(['journal', 'batchStore']);
    expect(a.sim.requests.length).toBe(before);
    // Named batches need no listing.
    const named = await reconcile(momo, [], { batchStore: withoutListing, batches: ['x'] });
    expect(named.items).toEqual([]);
  });

  it('a file batch store lists every batch by its id, whatever characters it has, and ignores other files', async () => {
    const folder = join(dir, crypto.randomUUID());
    const store = fileBatchStore(folder);
    const listed = async (from: BatchStore) => {
      const ids: string[] = [];
      for await (const id of from.batches?.() ?? []) ids.push(id);
      return ids.sort();
    };
    expect(await listed(store)).toEqual([]); // no folder yet
    const ids = ['payroll-2026-11', 'Payroll/2026 ü', '.hidden', 'a%41', '東京'];
    for (const id of ids) await store.open(id);
    await writeFile(join(folder, 'notes.txt'), 'not a batch');
    await writeFile(join(folder, 'batch-%zz.jsonl'), '');
    expect(await listed(store)).toEqual([...ids].sort());
    expect(await listed(fileBatchStore(folder))).toEqual([...ids].sort()); // another process
  });
});
