/**
 * Migration 9 (./migration-sql.ts): the provider's pauses kept in the shared rate budget, so
 * that a 429 one instance got holds every instance's calls of the class
 * (docs/assumptions.md, JE4). A file of its own: the migrations' list stays readable.
 */
export const RATE_PAUSE_SQL = `
-- A pause the provider asked for (a 429's Retry-After), kept for every instance: no
-- reservation in the window before paused_until (epoch ms on the database's clock).
ALTER TABLE {schema}.rate_windows ADD COLUMN paused_until float8 NOT NULL DEFAULT 0;
CREATE FUNCTION {schema}.rate_pause(window_name text, ms float8)
RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
  now_ms float8 := extract(epoch FROM clock_timestamp()) * 1000;
BEGIN
  INSERT INTO {schema}.rate_windows (name) VALUES (window_name) ON CONFLICT DO NOTHING;
  UPDATE {schema}.rate_windows SET paused_until = greatest(paused_until, now_ms + ms)
    WHERE name = window_name;
  RETURN now_ms;
END
$$;
-- As version 7's (with the asking instance's spread), never before the first window's
-- pause; returns {moment, now, paused_until}. The 3-argument form (instances of an earlier
-- release) knows no pause.
CREATE OR REPLACE FUNCTION {schema}.rate_reserve(names text[], rates float8[], margin float8, spread float8)
RETURNS float8[] LANGUAGE plpgsql AS $$
DECLARE
  now_ms float8;
  at float8;
  paused float8;
  kept float8[];
  len integer;
  n integer;
BEGIN
  INSERT INTO {schema}.rate_windows (name)
    SELECT w FROM unnest(names) AS w ORDER BY w COLLATE "C" ON CONFLICT DO NOTHING;
  PERFORM 1 FROM {schema}.rate_windows WHERE name = ANY(names)
    ORDER BY name COLLATE "C" FOR UPDATE;
  now_ms := extract(epoch FROM clock_timestamp()) * 1000;
  SELECT r.paused_until INTO paused FROM {schema}.rate_windows AS r WHERE r.name = names[1];
  at := greatest(now_ms, coalesce(paused, 0));
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
  RETURN ARRAY[at, now_ms, coalesce(paused, 0)];
END
$$;
`;
