import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { MomoClient } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import { addPayments } from 'momo-partner-sdk/bullmq';
import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TRANSFERS, transferRows } from '../support/batch-processes';
import { type BullWorkerInput, BullWorkerProcess } from '../support/bullmq-processes';
import { expectEveryWorkerPaused, pauseWindowOf, refuseOneWhenBusy } from '../support/pause-window';
import { ProviderProcess } from '../support/provider-process';
import { expectReportAgreesWithProvider, untilAllFinal } from './support/bullmq-checks';
import { describeWithRedis, RedisServer } from './support/redis-server';

/**
 * DESIGN 10.5 on BullMQ: "a 429 pausing every worker's creating calls". Worker processes
 * share one rate budget on a real redis-server (`createRedisState(redis).rateBudget`);
 * the provider, in its own process, answers one creating call 429 `Retry-After: 4`
 * while all are busy: no creating call from any worker arrives in the pause past the
 * grace for those already on their way (test/support/pause-window.ts).
 */
const WORKERS = 4;
const ITEMS = 240;
const CREATE_RATE = 20;
const SECRET = 'bullmq-pause-secret-0123456';

describeWithRedis('BullMQ: a 429 pauses every worker process (real redis-server)', () => {
  let server: RedisServer;
  let provider: ProviderProcess;
  beforeAll(async () => {
    server = await RedisServer.start();
    // The provider's cap above the shared rate: the one 429 is the injected one.
    provider = await ProviderProcess.start({
      settleMs: 100,
      limits: { createsPerSecond: 100, lookupsPerSecond: 1_000 },
    });
  }, 60_000);
  afterAll(async () => {
    await provider?.close();
    await server?.dispose();
  });

  it(`${WORKERS} workers at ${CREATE_RATE}/s together: none sends during the pause; each item created once`, {
    timeout: 240_000,
  }, async () => {
    const redis = new Redis(server.url, { maxRetriesPerRequest: null });
    const queue = new Queue('payouts-pause', { connection: redis });
    const prefix = 'bullmq-pause:';
    const store = redisBatchStore(redis, { prefix });
    const input: BullWorkerInput = {
      simulator: provider.client,
      redisUrl: server.url,
      queue: 'payouts-pause',
      prefix,
      secret: SECRET,
      concurrency: 20,
      createRate: CREATE_RATE,
      lookupRate: 200,
    };
    const workers = Array.from({ length: WORKERS }, () => new BullWorkerProcess(input));
    try {
      await Promise.all(workers.map((w) => w.ready()));
      const batch = 'payroll-pause';
      const items = transferRows(ITEMS, () => '46733123999');
      await addPayments(queue, { batch, items, secret: SECRET });
      const before = await refuseOneWhenBusy(provider, TRANSFERS, 40);
      await untilAllFinal(store, queue, batch, ITEMS, 180_000);

      const window = await pauseWindowOf(provider, TRANSFERS, before);
      expectEveryWorkerPaused(window, WORKERS);
      const report = await new Batches(new MomoClient(provider.client)).report(batch, { store });
      expect(report.summary).toMatchObject({ total: ITEMS, successful: ITEMS, unresolved: 0 });
      await expectReportAgreesWithProvider(provider, report);
      console.info(
        `[bullmq pause] 429 on ${window.refused.key}: ${window.early} arrivals within the grace, ${window.late.length} in the pause, ${window.after} after it`,
      );
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await queue.close();
      redis.disconnect();
    }
  });
});
