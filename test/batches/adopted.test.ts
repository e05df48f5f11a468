import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileBatchStore } from 'momo-partner-sdk/batches';
import { afterAll } from 'vitest';
import { adoptedCases } from '../support/adopted-cases';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

// The state folder deleted between the runs.
adoptedCases('fileBatchStore', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'momo-adopted-'));
  folders.push(dir);
  const state = join(dir, 'state');
  return {
    store: () => fileBatchStore(state),
    lose: () => rm(state, { recursive: true, force: true }),
  };
});
