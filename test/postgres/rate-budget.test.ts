import { createPostgresState } from 'momo-partner-sdk/postgres';
import { expect, it } from 'vitest';
import {
  expectNestedCaps,
  expectWindowUsed,
  heardLate,
  PER_KEY,
  reserveAllAtOnce,
  reserveForThreeKeys,
  reserveInTurns,
  SLOW_ANSWER_MS,
} from '../support/nested-budget';
import { describeWithPostgres } from '../support/postgres-server';
import { expectPauseShared } from '../support/shared-pause';
import { ARRIVAL_JITTER_MS, mostInWindow } from '../support/sliding-window';
import { usePostgres } from './support';

// The PostgreSQL rate budget (createPostgresState(pool).rateBudget): one statement per
// reservation locks the windows' rows and takes the earliest moment all of them allow.
// Real PostgreSQL, two pools (two instances); the moments are counted, nothing is timed.
describeWithPostgres('the PostgreSQL rate budget (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it('three keys under 4/s each and 10/s together, from two instances at once; no key in clear', async () => {
    const state = await pg15.freshState();
    const second = createPostgresState(pg15.newPool(), { schema: state.schema });
    expect(state.rateBudget.scopes).toBe(true);
    const [first, next] = await Promise.all([
      reserveForThreeKeys(state.rateBudget, 'create'),
      reserveForThreeKeys(second.rateBudget, 'create'),
    ]);
    // Counted over both instances' reservations together.
    expectNestedCaps(first.map((moments, i) => [...moments, ...(next[i] as number[])]));
    const rows = await pg15.pool().query(`SELECT name FROM "${state.schema}".rate_windows`);
    const names = rows.rows.map((row) => String(row.name));
    expect(names).toContain('all:create');
    expect(names.filter((name) => name.startsWith('key:'))).toHaveLength(3);
    expect(names.join(' ')).not.toMatch(/key-[abc]/);
  }, 60_000);

  it('without a scope: one window per class, as the Redis budget', async () => {
    const { rateBudget } = await pg15.freshState();
    const moments = await Promise.all(
      Array.from({ length: 12 }, () => rateBudget.reserve('lookup', 5, 30)),
    );
    expect(moments).toHaveLength(12);
    expect(mostInWindow(moments, 1_000 - ARRIVAL_JITTER_MS)).toBeLessThanOrEqual(5);
    // Five went in the first second: the window is used, not merely slow.
    expect(mostInWindow(moments, 1_000 + 30 + ARRIVAL_JITTER_MS)).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it("never lets a quick instance take an N + 1th call into a slow instance's second", async () => {
    // The slow instance hears each answer 40 ms after PostgreSQL gave it (a busy event
    // loop, a slow link): it maps the database's moments that much later onto its clock.
    const state = await pg15.freshState();
    const slowPool = slowerPool();
    const moments = await reserveInTurns(
      createPostgresState(slowPool, { schema: state.schema }).rateBudget,
      state.rateBudget,
    );
    expect(moments).toHaveLength(6 * PER_KEY);
    expect(mostInWindow(moments, 1_000)).toBeLessThanOrEqual(PER_KEY);
  }, 60_000);

  it('spaces a slow instance by its moments: its spread does not slow its rate', async () => {
    const state = await pg15.freshState();
    const slow = createPostgresState(slowerPool(SLOW_ANSWER_MS), { schema: state.schema });
    expectWindowUsed(await reserveAllAtOnce(slow.rateBudget));
  }, 60_000);

  it("a 429's pause recorded by one instance holds the other's reservations of its class (JE4)", async () => {
    const state = await pg15.freshState();
    const second = createPostgresState(pg15.newPool(), { schema: state.schema });
    await expectPauseShared(state.rateBudget, second.rateBudget);
  }, 60_000);

  /** A pool whose answers this instance hears `lateMs` after PostgreSQL gave them. */
  function slowerPool(lateMs?: number) {
    const pool = pg15.newPool();
    return {
      query: (text: string, values?: unknown[]) => heardLate(pool.query(text, values), lateMs),
      connect: () => pool.connect(),
      get totalCount() {
        return pool.totalCount; // what tells a pool from a client checked out of one
      },
    };
  }
});
