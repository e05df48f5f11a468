import { type PostgresConnection, type PostgresPoolClient, withClient } from './connection';

/**
 * `use` in one transaction on a client of the pool: BEGIN, `use(client)`, COMMIT (`hook`:
 * the partner's code `use` runs, as an error names it). A throw
 * (the SDK's statement's or the partner's code run in it) rolls it back and is rethrown. A
 * transaction that code left failed (a statement of its own failed, and was caught) ends
 * in PostgreSQL's ROLLBACK at COMMIT: an error saying so, nothing written.
 */
export function inTransaction<T>(
  db: PostgresConnection,
  use: (client: PostgresPoolClient) => Promise<T>,
  hook = 'onItemSettled',
): Promise<T> {
  return withClient(db.pool, async (client, broke) => {
    await client.query('BEGIN');
    try {
      const result = await use(client);
      const done = (await client.query('COMMIT')) as { command?: unknown };
      if (done.command === 'ROLLBACK') {
        throw new Error(`${hook} left its transaction failed: rolled back, nothing recorded`);
      }
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((failed: unknown) => {
        broke(failed instanceof Error ? failed : new Error('ROLLBACK failed'));
      });
      throw db.translate(error);
    }
  });
}
