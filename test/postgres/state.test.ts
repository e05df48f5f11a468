import { readFileSync } from 'node:fs';
import { isMomoError, isValidationError } from 'momo-partner-sdk';
import { createPostgresState, PostgresSchemaError } from 'momo-partner-sdk/postgres';
import pg from 'pg';
import { expect, it } from 'vitest';
import { migrationScript } from '../../src/postgres/migrations';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

it('refuses what is not a pg Pool and bad options, naming the option, sending nothing', () => {
  // Nothing to reach: a query on this pool would fail with ECONNREFUSED, not a ValidationError.
  const pool = new pg.Pool({ host: '127.0.0.1', port: 1 });
  const cases: [unknown, object, string][] = [
    [{}, {}, 'pool'],
    [undefined, {}, 'pool'],
    [{ query: async () => ({ rows: [] }) }, {}, 'pool'],
    [new pg.Client({ host: '127.0.0.1', port: 1 }), {}, 'pool'],
    [pool, { schema: '' }, 'schema'],
    [pool, { schema: 'Momo' }, 'schema'],
    [pool, { schema: 'momo; DROP TABLE orders' }, 'schema'],
    [pool, { schema: 'x'.repeat(64) }, 'schema'],
    [pool, { retentionMs: 0 }, 'retentionMs'],
    [pool, { leaseMs: 1.5 }, 'leaseMs'],
  ];
  for (const [candidate, options, field] of cases) {
    const error = thrown(() => createPostgresState(candidate as pg.Pool, options));
    expect(isValidationError(error), field).toBe(true);
    expect((error as { field: string }).field).toBe(field);
  }
  expect(pool.totalCount).toBe(0); // no connection was ever opened
});

describeWithPostgres('createPostgresState on a real PostgreSQL', () => {
  const pg15 = usePostgres();

  it('says to run migrate() when the tables are missing', async () => {
    const db = createPostgresState(pg15.pool(), { schema: pg15.freshSchema() });
    const error = await db.journal.pending().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresSchemaError);
    expect(isMomoError(error)).toBe(true);
    expect((error as Error).message).toMatch(/run db\.migrate\(\)/);
  });

  it('migrates idempotently, versioned, with several instances at once', async () => {
    const schema = pg15.freshSchema();
    const instances = Array.from({ length: 6 }, () =>
      createPostgresState(pg15.newPool(), { schema }),
    );
    await Promise.all(instances.map((db) => db.migrate()));
    await (instances[0] as (typeof instances)[0]).migrate(); // again: nothing to do
    const { rows } = await pg15
      .pool()
      .query(`SELECT version FROM "${schema}".migrations ORDER BY version`);
    expect(rows).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
      { version: 4 },
      { version: 5 },
      { version: 6 },
      { version: 7 },
      { version: 8 },
      { version: 9 },
      { version: 10 },
    ]);
    expect(await (instances[1] as (typeof instances)[0]).journal.pending()).toEqual([]);
  });

  it('refuses a schema newer than it knows', async () => {
    const db = await pg15.freshState();
    await pg15
      .pool()
      .query(`INSERT INTO "${db.schema}".migrations (version, name) VALUES (99, 'future')`);
    await expect(db.migrate()).rejects.toThrow(/version 99/);
  });

  it('ships docs/postgres.sql: the same tables migrate() creates, for schema momo', async () => {
    const file = readFileSync(new URL('../../docs/postgres.sql', import.meta.url), 'utf8');
    expect(file.endsWith(migrationScript('momo'))).toBe(true);
    // Run as a team's own migration would run it, then the SDK finds nothing to do.
    const schema = pg15.freshSchema();
    await pg15.pool().query(migrationScript(schema));
    const db = createPostgresState(pg15.pool(), { schema });
    await db.migrate();
    expect(await db.journal.pending()).toEqual([]);
  });
});
