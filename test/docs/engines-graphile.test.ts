import * as graphileWorker from 'graphile-worker';
import * as adapter from 'momo-partner-sdk/graphile-worker';
import * as postgres from 'momo-partner-sdk/postgres';
import * as subscriptions from 'momo-partner-sdk/subscriptions';
import type { Simulator } from 'momo-partner-sdk/testing';
import * as testing from 'momo-partner-sdk/testing';
import pg from 'pg';
import { expect, it } from 'vitest';
import { usePostgres } from '../postgres/support';
import { until } from '../redis/support/instances';
import { describeWithPostgres } from '../support/postgres-server';
import { collectSnippets, evalSnippet } from '../support/snippets';

// docs/engines.md "A subscription run on graphile-worker", run as written on a scratch
// PostgreSQL with graphile-worker 0.17 itself: the pass asked for at deploy, then a pass
// of the cron line (graphile-worker's minute tick: up to a minute's wait), the member's
// period 0 charged once at the simulator, and the SIGTERM handler run.
const root = new URL('../..', import.meta.url).pathname;
const recipe = collectSnippets(root).find(
  (s) =>
    s.where.startsWith('docs/engines.md') && s.heading === 'A subscription run on graphile-worker',
);

describeWithPostgres('docs/engines.md "A subscription run on graphile-worker"', () => {
  const pg15 = usePostgres();

  it('charges the member once from graphile-worker jobs: the deploy pass, then the cron pass', {
    timeout: 150_000,
  }, async () => {
    expect(recipe?.code).toContain('crontab: billing.crontab');
    const logged: string[] = [];
    const sims: Simulator[] = [];
    const pools: pg.Pool[] = [];
    class Pool extends pg.Pool {
      constructor(config?: pg.PoolConfig) {
        super(config);
        this.on('error', () => {});
        pools.push(this);
      }
    }
    const { host, port, user, database } = pg15.server().config;
    const onSignal = new Map<string, () => Promise<void>>();
    const quiet = new graphileWorker.Logger(() => () => {});
    try {
      await evalSnippet(
        recipe as NonNullable<typeof recipe>,
        {
          // graphile-worker's own logger kept quiet; everything else as the page says.
          'graphile-worker': {
            ...graphileWorker,
            run: (options: graphileWorker.RunnerOptions) =>
              graphileWorker.run({ ...options, logger: quiet }),
            makeWorkerUtils: (options: graphileWorker.WorkerUtilsOptions) =>
              graphileWorker.makeWorkerUtils({ ...options, logger: quiet }),
          },
          'momo-partner-sdk/graphile-worker': adapter,
          'momo-partner-sdk/postgres': postgres,
          'momo-partner-sdk/subscriptions': subscriptions,
          'momo-partner-sdk/testing': {
            ...testing,
            createSimulator: (...args: Parameters<typeof testing.createSimulator>) => {
              const sim = testing.createSimulator(...args);
              sims.push(sim);
              return sim;
            },
          },
          pg: { default: { ...pg, Pool } },
        },
        {
          console: { log: (...values: unknown[]) => logged.push(values.join(' ')) },
          process: {
            env: { DATABASE_URL: `postgres://${user}@${host}:${port}/${database}` },
            once: (signal: string, handler: () => Promise<void>) => onSignal.set(signal, handler),
          },
        },
      );
      // The deploy's pass charges period 0; the cron's next tick runs one more pass (nothing due).
      await until(() => logged.length >= 1, 60_000);
      expect(logged[0]).toBe('pass 1 1');
      await until(() => logged.length >= 2, 75_000);
      expect(logged[1]).toBe('pass 0 0');

      const sim = sims[0] as Simulator;
      const ops = (operation: string) => sim.transactions.filter((t) => t.operation === operation);
      expect(ops('collection.preApproval')).toHaveLength(1);
      expect(ops('collection.requestToPay').map((t) => t.status)).toEqual(['SUCCESSFUL']);
      const stored = await postgres
        .createPostgresState(pg15.pool())
        .subscriptionStore.get('member-42');
      expect(stored?.subscription.charges.map((c) => [c.period, c.status])).toEqual([
        [0, 'SUCCESSFUL'],
      ]);
      // graphile-worker knows the cron line: one row, whatever the number of workers.
      const known = await pg15
        .pool()
        .query('SELECT identifier FROM graphile_worker._private_known_crontabs');
      expect(known.rows).toEqual([{ identifier: 'momo:subscriptions' }]);
      const stop = onSignal.get('SIGTERM');
      onSignal.clear();
      await stop?.();
      expect(pools.every((p) => p.ended)).toBe(true);
    } finally {
      // A failure half-way still stops the recipe's worker and ends its pool.
      await onSignal
        .get('SIGTERM')?.()
        .catch(() => {});
      for (const pool of pools) if (!pool.ended) await pool.end().catch(() => {});
    }
  });
});
