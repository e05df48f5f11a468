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
    // As many connections as jobs at once, and a few for graphile-worker itself (its
    // advice): a job waiting for a connection behind the others waits on the pool, not
    // on the provider's cap.
    const pool = new pg.Pool({ ...input.config, max: input.concurrency + 4 });
    // A killed peer or a restarted server drops connections: graphile-worker asks for
    // both handlers (it warns at each connection without them).
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const state = createPostgresState(pool, { schema: input.schema });
    // The rate budget on a pool of its own: a reservation's answer bounds this process's
    // clock against the database's, and a reservation waiting for a connection behind 50
    // jobs' store calls reads as a slow answer, a wider spread (each reservation counted
    // that much later in the shared sliding second).
    const budgetPool = new pg.Pool({ ...input.config, max: 2 });
    budgetPool.on('error', () => {});
    budgetPool.on('connect', (client) => client.on('error', () => {}));
    const budget = createPostgresState(budgetPool, { schema: input.schema }).rateBudget;
    const momo = new MomoClient({
      ...input.provider,
      rateBudget: budget,
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
      await budgetPool.end();
    };
    return { pid: process.pid };
  },

  async close() {
    await close?.();
    setImmediate(() => process.exit(0));
    return {};
  },
});
