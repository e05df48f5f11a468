/**
 * One process of a partner's backend running a batch on a shared Redis store, forked by
 * test/redis/batch-processes.test.ts: it connects, says `ready`, runs the batch when told
 * (`run`), reports its progress as it goes and its report at the end, then exits.
 */
import { type BatchItem, MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { redisBatchStore } from 'momo-partner-sdk/redis';
import { connectClient, type Library } from '../support/clients';

export interface BatchRunnerInput {
  simulator: Pick<
    MomoClientOptions,
    'baseUrl' | 'targetEnvironment' | 'subscriptionKey' | 'apiUser'
  >;
  redisUrl: string;
  library: Library;
  prefix: string;
  batchId: string;
  leaseMs: number;
  items: BatchItem[];
}

const send = (message: unknown) => process.send?.(message);

process.once('message', async (input: BatchRunnerInput) => {
  const redis = await connectClient(input.library, input.redisUrl);
  const momo = new MomoClient({
    ...input.simulator,
    polling: { initialDelayMs: 50, maxDelayMs: 200, timeoutMs: 60_000 },
  });
  const store = redisBatchStore(redis.client, { prefix: input.prefix, leaseMs: input.leaseMs });
  send({ type: 'ready' });
  await new Promise((resolve) => process.once('message', resolve)); // 'run'
  const report = await momo.batches.run(input.items, {
    id: input.batchId,
    store,
    concurrency: 8,
    onProgress: (p) => send({ type: 'progress', sent: p.sent }),
  });
  send({ type: 'report', report });
  await redis.close();
  process.exit(0);
});
