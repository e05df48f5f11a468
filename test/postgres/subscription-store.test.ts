/** db.subscriptionStore end to end: a year of monthly charges by two runners, each on its own pool. */
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { expect, it } from 'vitest';
import { aYearOn } from '../subscriptions/year';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

describeWithPostgres('db.subscriptionStore on a real PostgreSQL', () => {
  const pg15 = usePostgres();

  it('a year: each period charged once by two runners; runDue reads the due_at index', async () => {
    const db = await pg15.freshState();
    await aYearOn(db.subscriptionStore);
    // Another instance's state over the same tables sees the same rows.
    const again = createPostgresState(pg15.newPool(), { schema: db.schema });
    const rows = await again.subscriptionStore.list({ status: 'ACTIVE' });
    expect(rows.map((s) => s.key)).toEqual(['member-1', 'member-2', 'member-3']);
    // The due query can be answered from the partial index alone (scans forbidden to prove it:
    // on three rows the planner would rightly read the table).
    const client = await pg15.pool().connect();
    let text = '';
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL enable_sort = off');
      const plan = await client.query(
        `EXPLAIN SELECT key FROM "${db.schema}".subscriptions WHERE due_at IS NOT NULL AND due_at <= 0 ORDER BY due_at, key COLLATE "C" LIMIT 100`,
      );
      text = plan.rows.map((r) => String(r['QUERY PLAN'])).join('\n');
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(text).toMatch(/Index (Only )?Scan using subscriptions_due/);
    expect(text).not.toMatch(/Sort/);
  }, 180_000);
});
