/**
 * Migration 10 (./migration-sql.ts): reservations spaced by their moments, the spread
 * counted in the sliding window only. Version 7 counted each reservation at its moment
 * plus its instance's spread for both rules, so that every two reservations were
 * 1000 / rate plus a spread apart: on a loaded machine (spreads of hundreds of ms) a fleet
 * made a few calls a second whatever the rate. The window rule alone keeps N + 1 calls
 * out of any sliding second wherever each call goes within its spread; the spacing is
 * there against bursts and needs only the moments (docs/assumptions.md, TR7).
 */
export const RATE_SPACING_SQL = `
-- Each window's latest moment (epoch ms on the database's clock), apart from the moments
-- counted with their spreads: the next reservation is 1000 / rate after it.
ALTER TABLE {schema}.rate_windows ADD COLUMN last_at float8 NOT NULL DEFAULT 0;
-- As version 9's, the even spacing taken from last_at; returns {moment, now, paused_until}.
CREATE OR REPLACE FUNCTION {schema}.rate_reserve(names text[], rates float8[], margin float8, spread float8)
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
  INSERT INTO {schema}.rate_windows (name)
    SELECT w FROM unnest(names) AS w ORDER BY w COLLATE "C" ON CONFLICT DO NOTHING;
  PERFORM 1 FROM {schema}.rate_windows WHERE name = ANY(names)
    ORDER BY name COLLATE "C" FOR UPDATE;
  now_ms := extract(epoch FROM clock_timestamp()) * 1000;
  SELECT r.paused_until INTO paused FROM {schema}.rate_windows AS r WHERE r.name = names[1];
  at := greatest(now_ms, coalesce(paused, 0));
  FOR i IN 1 .. array_length(names, 1) LOOP
    SELECT r.last_at INTO last FROM {schema}.rate_windows AS r WHERE r.name = names[i];
    SELECT coalesce(array_agg(m ORDER BY m), '{}') INTO kept
      FROM {schema}.rate_windows AS r, unnest(r.moments) AS m
      WHERE r.name = names[i] AND m >= now_ms - 2000 - margin;
    len := coalesce(array_length(kept, 1), 0);
    n := greatest(1, floor(rates[i]));
    IF last > 0 THEN at := greatest(at, last + 1000 / rates[i]); END IF;
    IF len >= n THEN at := greatest(at, kept[len - n + 1] + 1000 + margin); END IF;
  END LOOP;
  UPDATE {schema}.rate_windows AS r
    SET moments = array(SELECT m FROM unnest(r.moments) AS m
                        WHERE m >= now_ms - 2000 - margin ORDER BY m) || (at + spread),
        last_at = at
    WHERE r.name = ANY(names);
  RETURN ARRAY[at, now_ms, coalesce(paused, 0)];
END
$$;
`;
