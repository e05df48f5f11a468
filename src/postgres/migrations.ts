import { type PostgresConnection, PostgresSchemaError, withClient } from './connection';
import { RATE_PAUSE_SQL } from './migration-rate-pause';

/**
 * The SDK's tables, one migration per version, in order; `{schema}` stands for the quoted
 * schema. A release only ever appends a migration: `migrate()` applies those above the
 * version recorded in `<schema>.migrations`. docs/postgres.sql is these, rendered for
 * schema `momo` (a test keeps it so).
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'journal, batch items, tokens, locks',
    sql: `
-- Operations in flight: one row per reference id, recorded before the call leaves.
CREATE TABLE {schema}.journal (
  id                 text PRIMARY KEY,        -- the reference id, lower-cased
  reference_id       text NOT NULL,           -- as sent
  product            text NOT NULL,
  operation          text NOT NULL,
  created_at         bigint NOT NULL,         -- epoch ms, taken just before sending
  base_url           text NOT NULL,
  target_environment text NOT NULL,
  tag                text,
  outcome            text,                    -- NULL while pending
  finished_at        bigint,                  -- epoch ms
  seq                bigint NOT NULL          -- record order (same-millisecond ties)
);
CREATE SEQUENCE {schema}.journal_seq;
CREATE INDEX journal_pending ON {schema}.journal (created_at, seq) WHERE outcome IS NULL;
CREATE INDEX journal_finished ON {schema}.journal (finished_at) WHERE outcome IS NOT NULL;

-- Batches: one row per item, claimed (with a lease and a fencing token) before its intent.
CREATE TABLE {schema}.batch_items (
  batch_id                 text NOT NULL,
  key                      text NOT NULL,
  claim_owner              text,
  claim_token              text,            -- '<fence>:<owner>', new on every claim
  claim_expires            timestamptz,     -- on the database's clock
  seq                      bigint,          -- first-recorded order; NULL until the intent
  operation                text,
  fingerprint              text,
  reference_id             text,
  status                   text,            -- SENT, SUCCESSFUL, FAILED; NULL before any
  reason                   text,
  financial_transaction_id text,
  PRIMARY KEY (batch_id, key)
);
CREATE SEQUENCE {schema}.batch_fence;
CREATE SEQUENCE {schema}.batch_order;
CREATE INDEX batch_items_order ON {schema}.batch_items (batch_id, seq) WHERE seq IS NOT NULL;

-- Access tokens shared by every instance, and their refresh locks.
CREATE TABLE {schema}.tokens (
  key        text PRIMARY KEY,
  token      text NOT NULL,                  -- JSON: accessToken, tokenType, expiresAt, issuedAt
  expires_at bigint NOT NULL                 -- epoch ms
);
CREATE TABLE {schema}.locks (
  key        text PRIMARY KEY,
  holder     text NOT NULL,
  expires_at timestamptz NOT NULL            -- on the database's clock
);
`,
  },
  {
    version: 2,
    name: 'transactional outbox',
    sql: `
-- Payment intents enqueued in the partner's own transactions, sent by the relays.
CREATE SEQUENCE {schema}.outbox_order;
CREATE SEQUENCE {schema}.outbox_fence;
CREATE TABLE {schema}.outbox (
  key                      text PRIMARY KEY,        -- the partner's key (e.g. the order id)
  operation                text NOT NULL,
  body                     jsonb NOT NULL,
  callback_url             text,
  fingerprint              text NOT NULL,           -- SHA-256 of operation and canonical body
  reference_id             text NOT NULL,           -- chosen at enqueue, sent on every send
  seq                      bigint NOT NULL DEFAULT nextval('{schema}.outbox_order'),
  enqueued_at              timestamptz NOT NULL DEFAULT now(),
  status                   text NOT NULL DEFAULT 'QUEUED', -- QUEUED, SENT, SUCCESSFUL, FAILED
  reason                   text,
  financial_transaction_id text,
  claim_owner              text,
  claim_token              text,                    -- '<fence>:<owner>', new on every claim
  claim_expires            timestamptz,             -- on the database's clock
  attempts                 integer NOT NULL DEFAULT 0,
  not_before               timestamptz,             -- retry time after a give-back
  settled_at               timestamptz,             -- final status recorded
  delivered_at             timestamptz              -- onSettled committed with the mark
);
CREATE INDEX outbox_due ON {schema}.outbox (seq) WHERE delivered_at IS NULL;
`,
  },
  {
    version: 3,
    name: 'outbox last error and cancel, journal reason',
    sql: `
-- Why an outbox payment waits (no message, no body), and whether cancel() may end it.
ALTER TABLE {schema}.outbox
  ADD COLUMN last_error_name text,
  ADD COLUMN last_error_code text,
  ADD COLUMN last_error_at   bigint,          -- epoch ms
  ADD COLUMN maybe_sent      boolean NOT NULL DEFAULT false; -- a send's answer not known
-- A row given back before this version may have been sent: never cancellable.
UPDATE {schema}.outbox SET maybe_sent = true WHERE attempts > 0 AND delivered_at IS NULL;
-- The code of a refusal settled FAILED (e.g. INVALID_CURRENCY).
ALTER TABLE {schema}.journal ADD COLUMN reason text;
`,
  },
  {
    version: 4,
    name: 'subscriptions',
    sql: `
-- Recurring collections (momo.subscriptions): plans, and one row per subscription written
-- by compare-and-set on its version; due_at indexed so runDue reads only those due.
CREATE TABLE {schema}.subscription_plans (
  id   text PRIMARY KEY,
  plan jsonb NOT NULL                       -- the plan as subs.plan() checked it
);
CREATE TABLE {schema}.subscriptions (
  key          text PRIMARY KEY,            -- the partner's key (e.g. member-42)
  version      bigint NOT NULL,             -- 1 when created, one more on each write
  plan         text NOT NULL,
  status       text NOT NULL,               -- PENDING_MANDATE, ACTIVE, PAST_DUE, CANCELLED, ENDED
  due_at       bigint,                      -- epoch ms runDue looks at it next; NULL once stopped
  subscription jsonb NOT NULL,              -- the whole subscription: mandate, charges...
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_due ON {schema}.subscriptions (due_at, key COLLATE "C") WHERE due_at IS NOT NULL;
CREATE INDEX subscriptions_status ON {schema}.subscriptions (status);
`,
  },
  {
    version: 5,
    name: 'rate budget',
    sql: `
-- The rate budget every instance shares (rateBudget): one row per window (a class's,
-- a subscription key's by its hash, all keys'), the moments reserved in its last seconds.
CREATE TABLE {schema}.rate_windows (
  name    text PRIMARY KEY,                 -- '<class>', 'key:<scope id>:<class>', 'all:<class>'
  moments float8[] NOT NULL DEFAULT '{}'    -- epoch ms on the database's clock, oldest first
);
-- One reservation in one or more windows at once, under their row locks (taken in name
-- order): the earliest moment that keeps every window under its rate, added to each.
-- Returns {moment, now}, both on the database's clock.
CREATE FUNCTION {schema}.rate_reserve(names text[], rates float8[], margin float8)
RETURNS float8[] LANGUAGE plpgsql AS $$
DECLARE
  now_ms float8;
  at float8;
  kept float8[];
  len integer;
  n integer;
BEGIN
  INSERT INTO {schema}.rate_windows (name)
    SELECT w FROM unnest(names) AS w ORDER BY w COLLATE "C" ON CONFLICT DO NOTHING;
  PERFORM 1 FROM {schema}.rate_windows WHERE name = ANY(names)
    ORDER BY name COLLATE "C" FOR UPDATE;
  now_ms := extract(epoch FROM clock_timestamp()) * 1000;
  at := now_ms;
  FOR i IN 1 .. array_length(names, 1) LOOP
    SELECT coalesce(array_agg(m ORDER BY m), '{}') INTO kept
      FROM {schema}.rate_windows AS r, unnest(r.moments) AS m
      WHERE r.name = names[i] AND m >= now_ms - 2000 - margin;
    len := coalesce(array_length(kept, 1), 0);
    n := greatest(1, floor(rates[i]));
    IF len > 0 THEN at := greatest(at, kept[len] + 1000 / rates[i]); END IF;
    IF len >= n THEN at := greatest(at, kept[len - n + 1] + 1000 + margin); END IF;
  END LOOP;
  UPDATE {schema}.rate_windows AS r
    SET moments = array(SELECT m FROM unnest(r.moments) AS m
                        WHERE m >= now_ms - 2000 - margin ORDER BY m) || at
    WHERE r.name = ANY(names);
  RETURN ARRAY[at, now_ms];
END
$$;
`,
  },
  {
    version: 6,
    name: 'journal tenant',
    sql: `
-- The tenant whose credentials sent an operation (momo-partner-sdk/tenants); NULL for a
-- client of its own. A tenant resumes only its own pending entries.
ALTER TABLE {schema}.journal ADD COLUMN tenant text;
`,
  },
  { version: 7, name: 'rate pause', sql: RATE_PAUSE_SQL },
];

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
