import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis, RedisServer } from '../redis/support/redis-server';
import { describeWithPostgres, PostgresServer } from '../support/postgres-server';
import {
  bigBatchAheadOfSingle,
  expectNestedCapsAtProvider,
  type Processes,
  startProcesses,
} from './support';

// DESIGN 10.4, rates: each subscription key under its own rate and every tenant together
// under globalLimits, across processes, on Redis and on PostgreSQL, and fair. Three
// aggregator processes x four tenants (each a MomoClient with tenantRateBudget), the
// provider in a process of its own counting what reached it per key. Counted, not timed.
const SLOW = 180_000;
/** Two processes with 60 deposits each queued for one tenant: 120 at 20/s. */
const EACH = 60;

describeWithRedis('nested rates across processes, on Redis', () => {
  let processes: Processes;
  let redis: RedisServer;
  beforeAll(async () => {
    [redis, processes] = await Promise.all([RedisServer.start(), startProcesses(4, 3)]);
  }, SLOW);
  afterAll(async () => {
    await Promise.all([processes?.provider, ...(processes?.runners ?? [])].map((p) => p?.close()));
    await redis?.dispose();
  });

  it(
    '3 processes x 4 keys: each key within 4/s, all within 10/s, in any sliding second at the provider',
    async () => {
      await expectNestedCapsAtProvider(processes, { redisUrl: redis.url, prefix: 'caps:' });
    },
    SLOW,
  );

  it(
    "one tenant's queued batch lets another tenant's single payment go within a few of its calls",
    async () => {
      const { ahead, before, sent } = await bigBatchAheadOfSingle(
        processes,
        { redisUrl: redis.url, prefix: 'fair:' },
        EACH,
      );
      console.info(
        `redis: ${ahead} of the batch's calls went between the single payment's ask and its arrival (batch at ${before} of ${2 * EACH})`,
      );
      expect(sent).toBe(2 * EACH);
      // One reservation per process at a time: at most one per batch process ahead of it,
      // and the few an IPC round trip lets through; not the ~100 still queued.
      expect(ahead).toBeLessThanOrEqual(6);
    },
    SLOW,
  );
});

describeWithPostgres('nested rates across processes, on PostgreSQL', () => {
  let processes: Processes;
  let postgres: PostgresServer;
  let schema: number = 0;
  const store = async () => {
    const name = `momo_rates_${++schema}`;
    const { createPostgresState } = await import('momo-partner-sdk/postgres');
    const pg = (await import('pg')).default;
    const pool = new pg.Pool(postgres.config);
    await createPostgresState(pool, { schema: name }).migrate();
    await pool.end();
    return { postgres: postgres.config, schema: name };
  };
  beforeAll(async () => {
    [postgres, processes] = await Promise.all([PostgresServer.start(), startProcesses(4, 3)]);
  }, SLOW);
  afterAll(async () => {
    await Promise.all([processes?.provider, ...(processes?.runners ?? [])].map((p) => p?.close()));
    await postgres?.dispose();
  });

  it(
    '3 processes x 4 keys: each key within 4/s, all within 10/s, in any sliding second at the provider',
    async () => {
      await expectNestedCapsAtProvider(processes, await store());
    },
    SLOW,
  );

  it(
    "one tenant's queued batch lets another tenant's single payment go within a few of its calls",
    async () => {
      const { ahead, before, sent } = await bigBatchAheadOfSingle(processes, await store(), EACH);
      console.info(
        `postgres: ${ahead} of the batch's calls went between the single payment's ask and its arrival (batch at ${before} of ${2 * EACH})`,
      );
      expect(sent).toBe(2 * EACH);
      expect(ahead).toBeLessThanOrEqual(6);
    },
    SLOW,
  );
});
