import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchStore } from 'momo-partner-sdk';
import { fileBatchStore, memoryBatchStore } from 'momo-partner-sdk/batches';
import { batchStoreCases } from 'momo-partner-sdk/testing';
import { afterAll, describe } from 'vitest';
import { fakeDate, itConforms } from '../support/conformance';

const folders: string[] = [];
const dirs = new WeakMap<BatchStore, string>();
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('batch store conformance: memoryBatchStore', () => {
  const { pass } = fakeDate();
  // Memory lives as long as its store object: reopen is the store itself (the default).
  itConforms(batchStoreCases(() => memoryBatchStore(), { pass }));
});

describe('batch store conformance: fileBatchStore', () => {
  const { pass } = fakeDate();
  itConforms(
    batchStoreCases(
      () => {
        const dir = mkdtempSync(join(tmpdir(), 'momo-batches-'));
        folders.push(dir);
        const store = fileBatchStore(join(dir, 'state'));
        dirs.set(store, join(dir, 'state'));
        return store;
      },
      {
        pass,
        // A new store object over the same folder: what a restarted process opens.
        reopen: (store) => {
          const dir = dirs.get(store) as string;
          const next = fileBatchStore(dir);
          dirs.set(next, dir);
          return next;
        },
      },
    ),
  );
});
