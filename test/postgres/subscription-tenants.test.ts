import { createPostgresState } from 'momo-partner-sdk/postgres';
import { afterEach, beforeEach, it } from 'vitest';
import { expectSubscriptionTenantsApart } from '../subscriptions/tenant-support';
import { describeWithPostgres } from '../support/postgres-server';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { usePostgres } from './support';

// Issue 40 (DESIGN 10.4) on PostgreSQL: two tenants' subscriptions in one shared schema.
describeWithPostgres('subscriptions carry their tenant (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  let two: TwoTenants;
  beforeEach(async () => {
    two = await twoTenants();
  });
  afterEach(() => two.close());

  it("each tenant's runner charges, lists and reports only its own", async () => {
    const db = await pg15.freshState();
    const other = createPostgresState(pg15.newPool(), { schema: db.schema });
    await expectSubscriptionTenantsApart(two, db.subscriptionStore, other.subscriptionStore);
  });
});
