/**
 * One BullMQ worker process of the engines bench: BullMQ's `Worker` running the SDK's
 * `paymentProcessor` (bullmq 5.16+/6 as the partner installs it), the Redis batch store and
 * the rate budget every worker shares, as docs/engines.md's recipe. SIGKILLed at will.
 */
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { MomoClient } from 'momo-partner-sdk';
import { paymentProcessor, paymentWorkerOptions } from 'momo-partner-sdk/bullmq';
import { createRedisState, redisBatchStore } from 'momo-partner-sdk/redis';
import { serve } from './ipc.mjs';

let close;

serve({
  async start(input) {
    const connection = new Redis(input.redisUrl, { maxRetriesPerRequest: null });
    const redis = new Redis(input.redisUrl);
    connection.on('error', () => {});
    redis.on('error', () => {});
    // The rate budget on a connection of its own, not queued behind the store's commands:
    // a reservation's answer bounds this process's clock against Redis', and a slow answer
    // is counted against the shared rate (docs/engines.md, "Rates").
    const budgetRedis = new Redis(input.redisUrl);
    budgetRedis.on('error', () => {});
    const state = createRedisState(budgetRedis);
    const store = redisBatchStore(redis, { prefix: input.prefix });
    const momo = new MomoClient({
      ...input.provider,
      rateBudget: state.rateBudget,
      createRate: input.createRate,
      lookupRate: input.lookupRate,
    });
    const worker = new Worker(
      input.queue,
      paymentProcessor(momo, { secret: input.secret, store }),
      { connection, concurrency: input.concurrency, ...paymentWorkerOptions },
    );
    worker.on('error', () => {});
    await worker.waitUntilReady();
    close = async () => {
      await worker.close();
      await state.close();
      budgetRedis.disconnect();
      redis.disconnect();
      connection.disconnect();
    };
    return { pid: process.pid };
  },

  async close() {
    await close?.();
    setImmediate(() => process.exit(0));
    return {};
  },
});
