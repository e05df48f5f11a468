import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSubscriptionStore, memorySubscriptionStore } from 'momo-partner-sdk/subscriptions';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { expectSubscriptionTenantsApart } from './tenant-support';

// Issue 40 (DESIGN 10.4): subscriptions carry the tenant, on the in-process stores.
describe('subscriptions carry their tenant (memory and file stores)', () => {
  let two: TwoTenants;
  let dir: string;
  beforeEach(async () => {
    two = await twoTenants();
    dir = mkdtempSync(join(tmpdir(), 'momo-subs-tenants-'));
  });
  afterEach(async () => {
    await two.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("memory: each tenant's runner charges, lists and reports only its own", async () => {
    await expectSubscriptionTenantsApart(two, memorySubscriptionStore());
  });

  it('file: the same, one folder (one store object, as one process per folder)', async () => {
    await expectSubscriptionTenantsApart(two, fileSubscriptionStore(dir));
  });
});
