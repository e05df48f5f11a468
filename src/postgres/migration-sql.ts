import { RATE_PAUSE_SQL } from './migration-rate-pause';
import { RATE_SPACING_SQL } from './migration-rate-spacing';
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
  {
    version: 7,
    name: 'rate reservations counted with their spread',
    sql: `
-- rate_reserve with the asking instance's spread: how much later than its moment its clock
-- may send the call (its mapping of the database's clock onto its own is late by at most
-- that). The reservation is counted at its moment plus the spread, so that the next one,
-- from any instance, keeps its distance from where this call may really go. Returns
-- {moment, now}, both on the database's clock. The 3-argument form stays for instances
-- of an earlier release while they are replaced.
CREATE FUNCTION {schema}.rate_reserve(names text[], rates float8[], margin float8, spread float8)
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
                        WHERE m >= now_ms - 2000 - margin ORDER BY m) || (at + spread)
    WHERE r.name = ANY(names);
  RETURN ARRAY[at, now_ms];
END
$$;
`,
  },
  {
    version: 8,
    name: 'tenant of batch items, outbox intents and subscriptions',
    sql: `
-- The tenant whose client recorded the row (momo-partner-sdk/tenants); NULL for a client of
-- its own. A tenant's run, relay and subscriptions runner read and send only its own rows.
ALTER TABLE {schema}.batch_items ADD COLUMN IF NOT EXISTS tenant text;
ALTER TABLE {schema}.outbox ADD COLUMN IF NOT EXISTS tenant text;
ALTER TABLE {schema}.subscriptions ADD COLUMN IF NOT EXISTS tenant text;
CREATE INDEX IF NOT EXISTS subscriptions_tenant_due ON {schema}.subscriptions (tenant, due_at, key COLLATE "C") WHERE due_at IS NOT NULL;
`,
  },
  { version: 9, name: 'rate pause', sql: RATE_PAUSE_SQL },
  { version: 10, name: 'rate spacing by moments', sql: RATE_SPACING_SQL },
];
