-- momo-partner-sdk/postgres: the tables db.migrate() creates, for teams that run their own
-- migrations (Flyway, Liquibase, sqitch, a migrations folder). Rendered for schema "momo";
-- for another schema, replace "momo" throughout and pass { schema } to createPostgresState.
-- Run it in one transaction. db.migrate() reads the version in "momo".migrations and then
-- finds nothing to do; a later release appends a version here (upgrade by running only the
-- versions above the one recorded). docs/postgres.md explains each table.

CREATE SCHEMA IF NOT EXISTS "momo";

CREATE TABLE IF NOT EXISTS "momo".migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);

-- Version 1: journal, batch items, tokens, locks

-- Operations in flight: one row per reference id, recorded before the call leaves.
CREATE TABLE "momo".journal (
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
CREATE SEQUENCE "momo".journal_seq;
CREATE INDEX journal_pending ON "momo".journal (created_at, seq) WHERE outcome IS NULL;
CREATE INDEX journal_finished ON "momo".journal (finished_at) WHERE outcome IS NOT NULL;

-- Batches: one row per item, claimed (with a lease and a fencing token) before its intent.
CREATE TABLE "momo".batch_items (
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
CREATE SEQUENCE "momo".batch_fence;
CREATE SEQUENCE "momo".batch_order;
CREATE INDEX batch_items_order ON "momo".batch_items (batch_id, seq) WHERE seq IS NOT NULL;

-- Access tokens shared by every instance, and their refresh locks.
CREATE TABLE "momo".tokens (
  key        text PRIMARY KEY,
  token      text NOT NULL,                  -- JSON: accessToken, tokenType, expiresAt, issuedAt
  expires_at bigint NOT NULL                 -- epoch ms
);
CREATE TABLE "momo".locks (
  key        text PRIMARY KEY,
  holder     text NOT NULL,
  expires_at timestamptz NOT NULL            -- on the database's clock
);

INSERT INTO "momo".migrations (version, name) VALUES (1, 'journal, batch items, tokens, locks') ON CONFLICT DO NOTHING;

-- Version 2: transactional outbox

-- Payment intents enqueued in the partner's own transactions, sent by the relays.
CREATE SEQUENCE "momo".outbox_order;
CREATE SEQUENCE "momo".outbox_fence;
CREATE TABLE "momo".outbox (
  key                      text PRIMARY KEY,        -- the partner's key (e.g. the order id)
  operation                text NOT NULL,
  body                     jsonb NOT NULL,
  callback_url             text,
  fingerprint              text NOT NULL,           -- SHA-256 of operation and canonical body
  reference_id             text NOT NULL,           -- chosen at enqueue, sent on every send
  seq                      bigint NOT NULL DEFAULT nextval('"momo".outbox_order'),
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
CREATE INDEX outbox_due ON "momo".outbox (seq) WHERE delivered_at IS NULL;

INSERT INTO "momo".migrations (version, name) VALUES (2, 'transactional outbox') ON CONFLICT DO NOTHING;

-- Version 3: outbox last error and cancel, journal reason

-- Why an outbox payment waits (no message, no body), and whether cancel() may end it.
ALTER TABLE "momo".outbox
  ADD COLUMN last_error_name text,
  ADD COLUMN last_error_code text,
  ADD COLUMN last_error_at   bigint,          -- epoch ms
  ADD COLUMN maybe_sent      boolean NOT NULL DEFAULT false; -- a send's answer not known
-- A row given back before this version may have been sent: never cancellable.
UPDATE "momo".outbox SET maybe_sent = true WHERE attempts > 0 AND delivered_at IS NULL;
-- The code of a refusal settled FAILED (e.g. INVALID_CURRENCY).
ALTER TABLE "momo".journal ADD COLUMN reason text;

INSERT INTO "momo".migrations (version, name) VALUES (3, 'outbox last error and cancel, journal reason') ON CONFLICT DO NOTHING;

-- Version 4: subscriptions

-- Recurring collections (momo.subscriptions): plans, and one row per subscription written
-- by compare-and-set on its version; due_at indexed so runDue reads only those due.
CREATE TABLE "momo".subscription_plans (
  id   text PRIMARY KEY,
  plan jsonb NOT NULL                       -- the plan as subs.plan() checked it
);
CREATE TABLE "momo".subscriptions (
  key          text PRIMARY KEY,            -- the partner's key (e.g. member-42)
  version      bigint NOT NULL,             -- 1 when created, one more on each write
  plan         text NOT NULL,
  status       text NOT NULL,               -- PENDING_MANDATE, ACTIVE, PAST_DUE, CANCELLED, ENDED
  due_at       bigint,                      -- epoch ms runDue looks at it next; NULL once stopped
  subscription jsonb NOT NULL,              -- the whole subscription: mandate, charges...
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_due ON "momo".subscriptions (due_at, key COLLATE "C") WHERE due_at IS NOT NULL;
CREATE INDEX subscriptions_status ON "momo".subscriptions (status);

INSERT INTO "momo".migrations (version, name) VALUES (4, 'subscriptions') ON CONFLICT DO NOTHING;

-- Version 5: rate budget

-- The rate budget every instance shares (rateBudget): one row per window (a class's,
-- a subscription key's by its hash, all keys'), the moments reserved in its last seconds.
CREATE TABLE "momo".rate_windows (
  name    text PRIMARY KEY,                 -- '<class>', 'key:<scope id>:<class>', 'all:<class>'
  moments float8[] NOT NULL DEFAULT '{}'    -- epoch ms on the database's clock, oldest first
);
-- One reservation in one or more windows at once, under their row locks (taken in name
-- order): the earliest moment that keeps every window under its rate, added to each.
-- Returns {moment, now}, both on the database's clock.
CREATE FUNCTION "momo".rate_reserve(names text[], rates float8[], margin float8)
RETURNS float8[] LANGUAGE plpgsql AS $$
DECLARE
  now_ms float8;
  at float8;
  kept float8[];
  len integer;
  n integer;
BEGIN
  INSERT INTO "momo".rate_windows (name)
    SELECT w FROM unnest(names) AS w ORDER BY w COLLATE "C" ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "momo".rate_windows WHERE name = ANY(names)
    ORDER BY name COLLATE "C" FOR UPDATE;
  now_ms := extract(epoch FROM clock_timestamp()) * 1000;
  at := now_ms;
  FOR i IN 1 .. array_length(names, 1) LOOP
    SELECT coalesce(array_agg(m ORDER BY m), '{}') INTO kept
      FROM "momo".rate_windows AS r, unnest(r.moments) AS m
      WHERE r.name = names[i] AND m >= now_ms - 2000 - margin;
    len := coalesce(array_length(kept, 1), 0);
    n := greatest(1, floor(rates[i]));
    IF len > 0 THEN at := greatest(at, kept[len] + 1000 / rates[i]); END IF;
    IF len >= n THEN at := greatest(at, kept[len - n + 1] + 1000 + margin); END IF;
  END LOOP;
  UPDATE "momo".rate_windows AS r
    SET moments = array(SELECT m FROM unnest(r.moments) AS m
                        WHERE m >= now_ms - 2000 - margin ORDER BY m) || at
    WHERE r.name = ANY(names);
  RETURN ARRAY[at, now_ms];
END
$$;

INSERT INTO "momo".migrations (version, name) VALUES (5, 'rate budget') ON CONFLICT DO NOTHING;

-- Version 6: journal tenant

-- The tenant whose credentials sent an operation (momo-partner-sdk/tenants); NULL for a
-- client of its own. A tenant resumes only its own pending entries.
ALTER TABLE "momo".journal ADD COLUMN tenant text;

INSERT INTO "momo".migrations (version, name) VALUES (6, 'journal tenant') ON CONFLICT DO NOTHING;

-- Version 7: rate reservations counted with their spread

-- rate_reserve with the asking instance's spread: how much later than its moment its clock
-- may send the call (its mapping of the database's clock onto its own is late by at most
-- that). The reservation is counted at its moment plus the spread, so that the next one,
-- from any instance, keeps its distance from where this call may really go. Returns
-- {moment, now}, both on the database's clock. The 3-argument form stays for instances
-- of an earlier release while they are replaced.
CREATE FUNCTION "momo".rate_reserve(names text[], rates float8[], margin float8, spread float8)
RETURNS float8[] LANGUAGE plpgsql AS $$
DECLARE
  now_ms float8;
  at float8;
  kept float8[];
  len integer;
  n integer;
BEGIN
  INSERT INTO "momo".rate_windows (name)
    SELECT w FROM unnest(names) AS w ORDER BY w COLLATE "C" ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "momo".rate_windows WHERE name = ANY(names)
    ORDER BY name COLLATE "C" FOR UPDATE;
  now_ms := extract(epoch FROM clock_timestamp()) * 1000;
  at := now_ms;
  FOR i IN 1 .. array_length(names, 1) LOOP
    SELECT coalesce(array_agg(m ORDER BY m), '{}') INTO kept
      FROM "momo".rate_windows AS r, unnest(r.moments) AS m
      WHERE r.name = names[i] AND m >= now_ms - 2000 - margin;
    len := coalesce(array_length(kept, 1), 0);
    n := greatest(1, floor(rates[i]));
    IF len > 0 THEN at := greatest(at, kept[len] + 1000 / rates[i]); END IF;
    IF len >= n THEN at := greatest(at, kept[len - n + 1] + 1000 + margin); END IF;
  END LOOP;
  UPDATE "momo".rate_windows AS r
    SET moments = array(SELECT m FROM unnest(r.moments) AS m
                        WHERE m >= now_ms - 2000 - margin ORDER BY m) || (at + spread)
    WHERE r.name = ANY(names);
  RETURN ARRAY[at, now_ms];
END
$$;

INSERT INTO "momo".migrations (version, name) VALUES (7, 'rate reservations counted with their spread') ON CONFLICT DO NOTHING;

-- Version 8: tenant of batch items, outbox intents and subscriptions

-- The tenant whose client recorded the row (momo-partner-sdk/tenants); NULL for a client of
-- its own. A tenant's run, relay and subscriptions runner read and send only its own rows.
ALTER TABLE "momo".batch_items ADD COLUMN IF NOT EXISTS tenant text;
ALTER TABLE "momo".outbox ADD COLUMN IF NOT EXISTS tenant text;
ALTER TABLE "momo".subscriptions ADD COLUMN IF NOT EXISTS tenant text;
CREATE INDEX IF NOT EXISTS subscriptions_tenant_due ON "momo".subscriptions (tenant, due_at, key COLLATE "C") WHERE due_at IS NOT NULL;

INSERT INTO "momo".migrations (version, name) VALUES (8, 'tenant of batch items, outbox intents and subscriptions') ON CONFLICT DO NOTHING;

-- Version 9: rate pause

-- A pause the provider asked for (a 429's Retry-After), kept for every instance: no
-- reservation in the window before paused_until (epoch ms on the database's clock).
ALTER TABLE "momo".rate_windows ADD COLUMN paused_until float8 NOT NULL DEFAULT 0;
CREATE FUNCTION "momo".rate_pause(window_name text, ms float8)
RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
  now_ms float8 := extract(epoch FROM clock_timestamp()) * 1000;
BEGIN
  INSERT INTO "momo".rate_windows (name) VALUES (window_name) ON CONFLICT DO NOTHING;
  UPDATE "momo".rate_windows SET paused_until = greatest(paused_until, now_ms + ms)
    WHERE name = window_name;
  RETURN now_ms;
END
$$;
-- As version 7's (with the asking instance's spread), never before the first window's
-- pause; returns {moment, now, paused_until}. The 3-argument form (instances of an earlier
-- release) knows no pause.
CREATE OR REPLACE FUNCTION "momo".rate_reserve(names text[], rates float8[], margin float8, spread float8)
RETURNS float8[] LANGUAGE plpgsql AS $$
DECLARE
  now_ms float8;
  at float8;
  paused float8;
  kept float8[];
  len integer;
  n integer;
BEGIN
  INSERT INTO "momo".rate_windows (name)
    SELECT w FROM unnest(names) AS w ORDER BY w COLLATE "C" ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "momo".rate_windows WHERE name = ANY(names)
    ORDER BY name COLLATE "C" FOR UPDATE;
  now_ms := extract(epoch FROM clock_timestamp()) * 1000;
  SELECT r.paused_until INTO paused FROM "momo".rate_windows AS r WHERE r.name = names[1];
  at := greatest(now_ms, coalesce(paused, 0));
  FOR i IN 1 .. array_length(names, 1) LOOP
    SELECT coalesce(array_agg(m ORDER BY m), '{}') INTO kept
      FROM "momo".rate_windows AS r, unnest(r.moments) AS m
      WHERE r.name = names[i] AND m >= now_ms - 2000 - margin;
    len := coalesce(array_length(kept, 1), 0);
    n := greatest(1, floor(rates[i]));
    IF len > 0 THEN at := greatest(at, kept[len] + 1000 / rates[i]); END IF;
    IF len >= n THEN at := greatest(at, kept[len - n + 1] + 1000 + margin); END IF;
  END LOOP;
  UPDATE "momo".rate_windows AS r
    SET moments = array(SELECT m FROM unnest(r.moments) AS m
                        WHERE m >= now_ms - 2000 - margin ORDER BY m) || (at + spread)
    WHERE r.name = ANY(names);
  RETURN ARRAY[at, now_ms, coalesce(paused, 0)];
END
$$;

INSERT INTO "momo".migrations (version, name) VALUES (9, 'rate pause') ON CONFLICT DO NOTHING;

-- Version 10: rate spacing by moments

-- Each window's latest moment (epoch ms on the database's clock), apart from the moments
-- counted with their spreads: the next reservation is 1000 / rate after it.
ALTER TABLE "momo".rate_windows ADD COLUMN last_at float8 NOT NULL DEFAULT 0;
-- As version 9's, the even spacing taken from last_at; returns {moment, now, paused_until}.
CREATE OR REPLACE FUNCTION "momo".rate_reserve(names text[], rates float8[], margin float8, spread float8)
RETURNS float8[] LANGUAGE plpgsql AS $$
DECLARE
  now_ms float8;
  at float8;
  paused float8;
  last float8;
  kept float8[];
  len integer;
  n integer;
BEGIN
  INSERT INTO "momo".rate_windows (name)
    SELECT w FROM unnest(names) AS w ORDER BY w COLLATE "C" ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "momo".rate_windows WHERE name = ANY(names)
    ORDER BY name COLLATE "C" FOR UPDATE;
  now_ms := extract(epoch FROM clock_timestamp()) * 1000;
  SELECT r.paused_until INTO paused FROM "momo".rate_windows AS r WHERE r.name = names[1];
  at := greatest(now_ms, coalesce(paused, 0));
  FOR i IN 1 .. array_length(names, 1) LOOP
    SELECT r.last_at INTO last FROM "momo".rate_windows AS r WHERE r.name = names[i];
    SELECT coalesce(array_agg(m ORDER BY m), '{}') INTO kept
      FROM "momo".rate_windows AS r, unnest(r.moments) AS m
      WHERE r.name = names[i] AND m >= now_ms - 2000 - margin;
    len := coalesce(array_length(kept, 1), 0);
    n := greatest(1, floor(rates[i]));
    IF last > 0 THEN at := greatest(at, last + 1000 / rates[i]); END IF;
    IF len >= n THEN at := greatest(at, kept[len - n + 1] + 1000 + margin); END IF;
  END LOOP;
  UPDATE "momo".rate_windows AS r
    SET moments = array(SELECT m FROM unnest(r.moments) AS m
                        WHERE m >= now_ms - 2000 - margin ORDER BY m) || (at + spread),
        last_at = at
    WHERE r.name = ANY(names);
  RETURN ARRAY[at, now_ms, coalesce(paused, 0)];
END
$$;

INSERT INTO "momo".migrations (version, name) VALUES (10, 'rate spacing by moments') ON CONFLICT DO NOTHING;
