import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BatchStore, fileBatchStore, memoryBatchStore } from 'momo-partner-sdk';
import { afterAll } from 'vitest';
import { batchStoreContract } from '../support/batch-store-contract';

const folders: string[] = [];
const dirs = new WeakMap<BatchStore, string>();
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

batchStoreContract('memoryBatchStore', {
  make: () => memoryBatchStore(),
  reopen: (store) => store, // memory lives as long as its store object
});

batchStoreContract('fileBatchStore', {
  make: () => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-batches-'));
    folders.push(dir);
    const store = fileBatchStore(join(dir, 'state'));
    dirs.set(store, join(dir, 'state'));
    return store;
  },
  reopen: (store) => {
    // A new store object over the same folder: what a restarted process opens.
    const dir = dirs.get(store) as string;
    const next = fileBatchStore(dir);
    dirs.set(next, dir);
    return next;
  },
});
