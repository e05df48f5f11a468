import { type PostgresConnection, PostgresSchemaError, withClient } from './connection';
// The SDK's tables, one migration per version: the SQL in ./migration-sql.ts.
import { MIGRATIONS } from './migration-sql';

/** The latest version this release knows. */
export const LATEST = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** One migration's SQL for `schema` (already checked). */
export function render(sql: string, schema: string): string {
  return sql.replaceAll('{schema}', `"${schema}"`);
}

/** Everything `migrate()` runs, as one script for teams that run their own migrations. */
export function migrationScript(schema: string): string {
  const parts = [
    `CREATE SCHEMA IF NOT EXISTS "${schema}";`,
    `CREATE TABLE IF NOT EXISTS "${schema}".migrations (\n  version    integer PRIMARY KEY,\n  name       text NOT NULL,\n  applied_at timestamptz NOT NULL DEFAULT now()\n);`,
  ];
  for (const { version, name, sql } of MIGRATIONS) {
    parts.push(`-- Version ${version}: ${name}`, render(sql, schema).trim());
    parts.push(
      `INSERT INTO "${schema}".migrations (version, name) VALUES (${version}, '${name}') ON CONFLICT DO NOTHING;`,
    );
  }
  return `${parts.join('\n\n')}\n`;
}

/**
 * Creates or upgrades the tables, in one transaction under a transaction-scoped advisory
 * lock on the schema's name: instances starting at once run it one after the other, and
 * the later ones find nothing to do. A schema newer than this release: PostgresSchemaError.
 */
export function migrate(db: PostgresConnection): Promise<void> {
  return withClient(db.pool, async (client, broke) => {
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `momo-partner-sdk:${db.schema}`,
      ]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${db.schema}"`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${db.table('migrations')} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const { rows } = await client.query(
        `SELECT coalesce(max(version), 0) AS version FROM ${db.table('migrations')}`,
      );
      const current = Number(rows[0]?.version ?? 0);
      if (current > LATEST) {
        throw new PostgresSchemaError(
          db.schema,
          `Schema "${db.schema}" is at version ${current}; this release of momo-partner-sdk knows up to ${LATEST}: upgrade the SDK`,
        );
      }
      for (const { version, name, sql } of MIGRATIONS) {
        if (version <= current) continue;
        await client.query(render(sql, db.schema));
        await client.query(
          `INSERT INTO ${db.table('migrations')} (version, name) VALUES ($1, $2)`,
          [version, name],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      // A refusal of ours leaves the connection sound; any other failure retires it.
      if (error instanceof Error && !(error instanceof PostgresSchemaError)) broke(error);
      throw error;
    }
  });
}
