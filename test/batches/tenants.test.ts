import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileBatchStore, memoryBatchStore } from 'momo-partner-sdk/batches';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { expectBatchTenantsApart } from './tenant-support';

// Issue 40 (DESIGN 10.4): batch items carry the tenant, on the in-process stores.
describe('batch items carry their tenant (memory and file stores)', () => {
  let two: TwoTenants;
  let dir: string;
  beforeEach(async () => {
    two = await twoTenants();
    dir = mkdtempSync(join(tmpdir(), 'momo-batch-tenants-'));
  });
  afterEach(async () => {
    await two.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('memory: each tenant records, reports and sends only its own items', async () => {
    await expectBatchTenantsApart(two, memoryBatchStore());
  });

  it('file: the same, read back by another store object over the folder', async () => {
    await expectBatchTenantsApart(two, fileBatchStore(dir), fileBatchStore(dir));
  });
});
