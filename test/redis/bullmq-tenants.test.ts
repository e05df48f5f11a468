import { type Job, Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { Batches } from 'momo-partner-sdk/batches';
import { addPayments, type PaymentJobResult, paymentProcessor } from 'momo-partner-sdk/bullmq';
import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { PAYEE, row } from '../batches/harness';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { describeWithRedis, RedisServer } from './support/redis-server';

// Issue 40 on BullMQ (real redis-server, workers in this process): the item a tenant's
// worker paid carries its tenant in the job's result and in the batch store's report.
const SECRET = 'bullmq-tenants-secret-0123456';

describeWithRedis('BullMQ: payment jobs carry their tenant (real redis-server)', () => {
  let server: RedisServer;
  let redis: Redis;
  let two: TwoTenants;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await server?.dispose();
  });
  beforeEach(async () => {
    two = await twoTenants();
  });
  afterEach(() => two.close());

  it("a tenant's worker records its tenant on the item; the report of each tenant lists its own", async () => {
    const store = redisBatchStore(redis, { prefix: 'bullmq-tenants:' });
    const queue = new Queue('acme-payouts', { connection: redis });
    const events = new QueueEvents('acme-payouts', { connection: redis.duplicate() });
    const worker = new Worker(
      'acme-payouts',
      paymentProcessor(two.acme, { secret: SECRET, store }),
      { connection: redis.duplicate(), concurrency: 4 },
    );
    try {
      await events.waitUntilReady();
      await addPayments(queue, { batch: 'acme-run', items: [row('a1', PAYEE.ok)], secret: SECRET });
      const [job] = (await queue.getJobs(['waiting', 'active', 'completed', 'delayed'])) as Job[];
      const result = (await (job as Job).waitUntilFinished(events, 30_000)) as PaymentJobResult;
      expect(result).toMatchObject({ status: 'SUCCESSFUL', key: 'a1', tenant: 'acme' });
      const acmeRows = (await new Batches(two.acme).report('acme-run', { store })).items;
      expect(acmeRows.map((i) => [i.key, i.status, i.tenant])).toEqual([
        ['a1', 'SUCCESSFUL', 'acme'],
      ]);
      // zeta's client reads none of acme's items.
      await expect(new Batches(two.zeta).report('acme-run', { store })).rejects.toThrow(
        /not a batch with recorded items/,
      );
      expect(two.createdWith('zeta')).toEqual([]);
    } finally {
      await worker.close();
      await events.close();
      await queue.close();
    }
  }, 60_000);
});
