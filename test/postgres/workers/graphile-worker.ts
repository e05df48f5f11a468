/**
 * One graphile-worker process of a partner's backend (forked by
 * test/postgres/graphile-support.ts through `Instance`): its own pool, a client paced at
 * its share of the provider's caps, and graphile-worker's `run` with the SDK's payment
 * tasks (and, when asked, the subscription cron task). The test SIGKILLs it at will.
 */
import { MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { paymentTasks } from 'momo-partner-sdk/graphile-worker';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import pg from 'pg';
import { send, serveParent } from '../../support/worker';

export interface GraphileWorkerInput {
  simulator: Pick<
    MomoClientOptions,
    'baseUrl' | 'targetEnvironment' | 'subscriptionKey' | 'apiUser'
  >;
  config: pg.PoolConfig;
  /** The SDK's schema (batch store, rate budget). */
  schema: string;
  /** graphile-worker's schema. */
  workerSchema: string;
  secret: string;
  concurrency: number;
  /**
   * This worker's share of the provider's caps (a cap over the number of workers): the
   * PostgreSQL state has no shared rate budget yet (DESIGN 10.4's `db.rateBudget`).
   */
  createRate: number;
  lookupRate: number;
}

// graphile-worker is CommonJS: loaded as the partner's app would, at run time.
const { Logger, run } = await import('graphile-worker');

/** graphile-worker's own logs off (8 processes on one terminal); errors still shown. */
const quiet = new Logger(() => (level, message) => {
  if (level === 'error') console.error(`[graphile-worker ${process.pid}] ${message}`);
});

let stop: (() => Promise<void>) | undefined;

serveParent({
  async start(input: GraphileWorkerInput) {
    const pool = new pg.Pool({ ...input.config, max: 8 });
    pool.on('error', () => {});
    const state = createPostgresState(pool, { schema: input.schema });
    const momo = new MomoClient({
      ...input.simulator,
      createRate: input.createRate,
      lookupRate: input.lookupRate,
      polling: { initialDelayMs: 50, maxDelayMs: 250, timeoutMs: 60_000 },
    });
    const runner = await run({
      pgPool: pool,
      schema: input.workerSchema,
      concurrency: input.concurrency,
      noHandleSignals: true,
      pollInterval: 500,
      logger: quiet,
      taskList: paymentTasks(momo, {
        secret: input.secret,
        store: state.batchStore,
        workerSchema: input.workerSchema,
        // Each job's result to the test, as an event (key, status and why).
        onResult: (r) => {
          send({ type: 'event', name: r.status, referenceId: `${r.key} ${r.reason ?? ''}` });
        },
      }),
    });
    stop = async () => {
      await runner.stop();
      await pool.end();
    };
    return {};
  },

  /** Its pid, for a test to SIGSTOP it (a stalled worker) and SIGCONT it. */
  async pid() {
    return process.pid;
  },

  async close() {
    await stop?.();
    setImmediate(() => process.exit(0));
    return {};
  },
});
