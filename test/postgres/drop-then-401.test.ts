import { it } from 'vitest';
import { dropThen401 } from '../support/drop-then-401';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

describeWithPostgres('drop, then 401, on the PostgreSQL journal (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it('keeps the id pending (never REJECTED), and a lookup settles it', async () => {
    const { journal } = await pg15.freshState();
    await dropThen401(journal);
  });
});
