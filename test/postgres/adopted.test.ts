import { createPostgresState } from 'momo-partner-sdk/postgres';
import { adoptedCases } from '../support/adopted-cases';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

describeWithPostgres('the Postgres batch store (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  // `DELETE FROM <schema>.batch_items` between the runs (another database, a restore).
  adoptedCases('createPostgresState(pool).batchStore', async () => {
    const { schema } = await pg15.freshState();
    return {
      store: () => createPostgresState(pg15.pool(), { schema }).batchStore,
      lose: async () => {
        await pg15.pool().query(`DELETE FROM ${schema}.batch_items`);
      },
    };
  });
});
