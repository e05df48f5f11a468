/**
 * The two engines as the bench runs them, each on its own scratch server: BullMQ on a
 * redis-server (bench/lib/redis-server.mjs), graphile-worker 0.17 on a PostgreSQL
 * (bench/lib/postgres-server.mjs). `setup(provider, plan)` gives what the kill run needs
 * (bench/engines/kill-run.mjs); `inProcess(momo, secret)` what the overhead run needs
 * (bench/engines/overhead.mjs): a store, and `add` + `drain` for the engine's jobs run in
 * this process at 16 at a time.
 */
import { Queue, Worker } from 'bullmq';
import { Logger, makeWorkerUtils, run } from 'graphile-worker';
import { Redis } from 'ioredis';
import {
  addPayments as addBullPayments,
  paymentProcessor,
  paymentWorkerOptions,
} from 'momo-partner-sdk/bullmq';
import { addPayments as addGraphilePayments, paymentTasks } from 'momo-partner-sdk/graphile-worker';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { redisBatchStore } from 'momo-partner-sdk/redis';
import pg from 'pg';
import { ScratchPostgres } from '../lib/postgres-server.mjs';
import { startRedis } from '../lib/redis-server.mjs';

const SECRET = 'bench-engines-secret-0123456';
const FINAL = new Set(['SUCCESSFUL', 'FAILED', 'REJECTED']);
const quiet = new Logger(() => () => {});

/** How many of the batch's items are final in the store. */
export async function finalIn(store, batch) {
  let final = 0;
  for await (const r of (await store.open(batch)).records()) {
    if (FINAL.has(r.outcome?.status)) final++;
  }
  return final;
}

export const bullmq = {
  name: 'bullmq',
  async setup(provider, plan) {
    const server = await startRedis();
    const redis = new Redis(server.url, { maxRetriesPerRequest: null });
    redis.on('error', () => {});
    const queue = new Queue('bench-payouts', { connection: redis });
    const store = redisBatchStore(redis, { prefix: 'bench-engines:' });
    return {
      workerScript: 'worker-bullmq.mjs',
      workerInput: {
        provider,
        redisUrl: server.url,
        queue: 'bench-payouts',
        prefix: 'bench-engines:',
        secret: SECRET,
        concurrency: plan.concurrency,
        createRate: plan.createRate,
        lookupRate: plan.lookupRate,
      },
      add: (batch, items) => addBullPayments(queue, { batch, items, secret: SECRET }),
      finalCount: (batch) => finalIn(store, batch),
      async stop() {
        await queue.close();
        redis.disconnect();
        server.stop();
      },
    };
  },
  async inProcess(momo) {
    const server = await startRedis();
    const redis = new Redis(server.url, { maxRetriesPerRequest: null });
    redis.on('error', () => {});
    const queue = new Queue('bench-overhead', { connection: redis });
    const store = redisBatchStore(redis, { prefix: 'bench-overhead:' });
    const workerConnection = redis.duplicate();
    workerConnection.on('error', () => {});
    const worker = new Worker('bench-overhead', paymentProcessor(momo, { secret: SECRET, store }), {
      connection: workerConnection,
      concurrency: 16,
      ...paymentWorkerOptions,
    });
    worker.on('error', () => {});
    await worker.waitUntilReady();
    return {
      store,
      secret: SECRET,
      add: (batch, items) => addBullPayments(queue, { batch, items, secret: SECRET }),
      async stop() {
        await worker.close();
        await queue.close();
        workerConnection.disconnect();
        redis.disconnect();
        server.stop();
      },
    };
  },
};

export const graphileWorker = {
  name: 'graphile-worker',
  async setup(provider, plan) {
    // Each worker's pool as large as its concurrency plus graphile-worker's own needs.
    const server = await ScratchPostgres.start({
      maxConnections: (plan.workers + 2) * (plan.concurrency + 8),
    });
    const pool = new pg.Pool({ ...server.config, max: 4 });
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const state = createPostgresState(pool, { schema: 'momo_bench' });
    await state.migrate();
    const utils = await makeWorkerUtils({ pgPool: pool, schema: 'gw_bench', logger: quiet });
    await utils.migrate();
    return {
      workerScript: 'worker-graphile.mjs',
      workerInput: {
        provider,
        config: server.config,
        schema: 'momo_bench',
        workerSchema: 'gw_bench',
        secret: SECRET,
        concurrency: plan.concurrency,
        createRate: plan.createRate,
        lookupRate: plan.lookupRate,
      },
      add: (batch, items) => addGraphilePayments(utils, { batch, items, secret: SECRET }),
      finalCount: (batch) => finalIn(state.batchStore, batch),
      async stop() {
        await utils.release();
        await pool.end();
        await server.dispose();
      },
    };
  },
  async inProcess(momo) {
    const server = await ScratchPostgres.start();
    const pool = new pg.Pool({ ...server.config, max: 20 });
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const state = createPostgresState(pool, { schema: 'momo_bench' });
    await state.migrate();
    const store = state.batchStore;
    const utils = await makeWorkerUtils({ pgPool: pool, schema: 'gw_bench', logger: quiet });
    await utils.migrate();
    const runner = await run({
      pgPool: pool,
      schema: 'gw_bench',
      concurrency: 16,
      pollInterval: 200,
      noHandleSignals: true,
      logger: quiet,
      taskList: paymentTasks(momo, { secret: SECRET, store, workerSchema: 'gw_bench' }),
    });
    return {
      store,
      secret: SECRET,
      add: (batch, items) => addGraphilePayments(utils, { batch, items, secret: SECRET }),
      async stop() {
        await runner.stop();
        await utils.release();
        await pool.end();
        await server.dispose();
      },
    };
  },
};
