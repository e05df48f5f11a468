import { afterEach, beforeEach, it } from 'vitest';
import { expectBatchTenantsApart } from '../batches/tenant-support';
import { describeWithPostgres } from '../support/postgres-server';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { usePostgres } from './support';

// Issue 40 (DESIGN 10.4) on PostgreSQL: two tenants' batch items on one shared schema.
describeWithPostgres('batch items carry their tenant (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  let two: TwoTenants;
  beforeEach(async () => {
    two = await twoTenants();
  });
  afterEach(() => two.close());

  it('each tenant records, reports and sends only its own items', async () => {
    const { batchStore } = await pg15.freshState();
    await expectBatchTenantsApart(two, batchStore);
  });
});
