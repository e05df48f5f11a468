import { it } from 'vitest';
import { expectHandMadeTenantsStamped } from '../support/hand-made-tenants';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

// TN8 on the PostgreSQL journal: clients made by hand with `tenant`, no `Tenants` in between.
describeWithPostgres(
  'a hand-made tenant client on the PostgreSQL journal (real PostgreSQL)',
  () => {
    const pg15 = usePostgres();

    it('stamps every entry with its tenant; reconcile and resume keep to their own', async () => {
      await expectHandMadeTenantsStamped((await pg15.freshState()).journal);
    });
  },
);
