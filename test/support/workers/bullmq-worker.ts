/**
 * One worker process of a partner's backend on BullMQ, forked by
 * test/support/bullmq-processes.ts: an ioredis connection for BullMQ, the SDK's Redis
 * batch store and shared rate budget on another, a client paced by that budget, and a
 * BullMQ `Worker` running `paymentProcessor`. Says `ready` once the worker runs; counts
 * the jobs it completed; closes and exits when told (`exit`).
 */
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { paymentProcessor, paymentWorkerOptions } from 'momo-partner-sdk/bullmq';
import { createRedisState, redisBatchStore } from 'momo-partner-sdk/redis';

export interface BullWorkerInput {
  simulator: Pick<
    MomoClientOptions,
    'baseUrl' | 'targetEnvironment' | 'subscriptionKey' | 'apiUser'
  >;
  redisUrl: string;
  queue: string;
  /** The batch store's key prefix. */
  prefix: string;
  secret: string;
  concurrency: number;
  /** The provider's creating cap per second, kept by all workers together. */
  createRate: number;
  lookupRate: number;
  /** The job's deadline before it becomes a lookup job (default the adapter's). */
  deadlineMs?: number | undefined;
}

const send = (message: unknown) => process.send?.(message);

process.once('message', async (input: BullWorkerInput) => {
  const connection = new Redis(input.redisUrl, { maxRetriesPerRequest: null });
  const sdkRedis = new Redis(input.redisUrl);
  connection.on('error', () => {});
  sdkRedis.on('error', () => {});
  const state = createRedisState(sdkRedis);
  const store = redisBatchStore(sdkRedis, { prefix: input.prefix });
  const momo = new MomoClient({
    ...input.simulator,
    rateBudget: state.rateBudget,
    createRate: input.createRate,
    lookupRate: input.lookupRate,
    polling: { initialDelayMs: 100, maxDelayMs: 500, timeoutMs: 60_000 },
  });
  const processor = paymentProcessor(momo, {
    secret: input.secret,
    store,
    ...(input.deadlineMs === undefined ? {} : { deadlineMs: input.deadlineMs, lookupDelayMs: 500 }),
  });
  let completed = 0;
  const worker = new Worker(input.queue, processor, {
    connection,
    concurrency: input.concurrency,
    ...paymentWorkerOptions,
  });
  worker.on('completed', () => send({ type: 'completed', count: ++completed }));
  worker.on('error', () => {});
  await worker.waitUntilReady();
  process.on('message', async (command: string) => {
    if (command !== 'exit') return;
    await worker.close();
    await state.close();
    sdkRedis.disconnect();
    connection.disconnect();
    process.exit(0);
  });
  send({ type: 'ready', pid: process.pid });
});
