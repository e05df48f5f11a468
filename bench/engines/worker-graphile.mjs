/**
 * One graphile-worker process of the engines bench: graphile-worker 0.17's `run` with the
 * SDK's `paymentTasks`, the PostgreSQL batch store and the rate budget every worker
 * shares, as docs/engines.md's recipe. SIGKILLed at will.
 */
import { Logger, run } from 'graphile-worker';
import { MomoClient } from 'momo-partner-sdk';
import { paymentTasks } from 'momo-partner-sdk/graphile-worker';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import pg from 'pg';
import { serve } from './ipc.mjs';

const quiet = new Logger(() => (level, message) => {
  if (level === 'error') console.error(`[graphile-worker ${process.pid}] ${message}`);
});
let close;

serve({
  async start(input) {
    const pool = new pg.Pool({ ...input.config, max: 6 });
    pool.on('error', () => {});
    const state = createPostgresState(pool, { schema: input.schema });
    const momo = new MomoClient({
      ...input.provider,
      rateBudget: state.rateBudget,
      createRate: input.createRate,
      lookupRate: input.lookupRate,
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
      }),
    });
    close = async () => {
      await runner.stop();
      await pool.end();
    };
    return { pid: process.pid };
  },

  async close() {
    await close?.();
    setImmediate(() => process.exit(0));
    return {};
  },
});
