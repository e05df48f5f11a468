import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { subscriptionJobs } from 'momo-partner-sdk/bullmq';
import { memorySubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis, RedisServer } from './support/redis-server';

// subscriptionJobs on a real redis-server: `runDue` on BullMQ's job scheduler, one pass
// at a time across three workers, each a pass slower than the schedule's interval. The
// same workers on a queue scheduled without the adapter (BullMQ alone) run passes at once:
// what the adapter's global concurrency prevents.
const EVERY_MS = 100;
const PASS_PADDING_MS = 300;

/** Passes of `subs.runDue` counted as they overlap, each held `PASS_PADDING_MS` longer. */
function countingPasses(subs: Subscriptions) {
  const seen = { passes: 0, active: 0, mostAtOnce: 0 };
  const runDue = async () => {
    seen.active++;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.active);
    try {
      const report = await subs.runDue();
      await new Promise((resolve) => setTimeout(resolve, PASS_PADDING_MS)); // a long pass
      return report;
    } finally {
      seen.active--;
      seen.passes++;
    }
  };
  return { seen, subs: { runDue } };
}

async function untilPasses(seen: { passes: number }, n: number): Promise<void> {
  while (seen.passes < n) await new Promise((resolve) => setTimeout(resolve, 50));
}

describeWithRedis('BullMQ subscriptionJobs (real redis-server)', () => {
  let server: RedisServer;
  let connection: Redis;
  beforeAll(async () => {
    server = await RedisServer.start();
    connection = new Redis(server.url, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    connection?.disconnect();
    await server?.dispose();
  });

  it('runs runDue on the job scheduler, one pass at a time across workers', async () => {
    const sim = createSimulator();
    const real = new Subscriptions(sim.client(), {
      store: memorySubscriptionStore(),
      secret: 'subscription-jobs-secret-01',
    });
    const run = async (scheduled: (queue: Queue) => Promise<void>, name: string) => {
      const { seen, subs } = countingPasses(real);
      const jobs = subscriptionJobs(subs, { every: EVERY_MS });
      const queue = new Queue(name, { connection });
      const workers = [1, 2, 3].map(
        () => new Worker(name, jobs.processor, { connection, concurrency: 4 }),
      );
      try {
        await scheduled(queue);
        await untilPasses(seen, 6);
      } finally {
        await queue.removeJobScheduler('momo.subscriptions');
        await Promise.all(workers.map((w) => w.close()));
        await queue.close();
      }
      return seen;
    };
    const adapter = await run(
      (queue) => subscriptionJobs(real, { every: EVERY_MS }).schedule(queue),
      'subs-adapter',
    );
    expect(adapter.passes).toBeGreaterThanOrEqual(6);
    expect(adapter.mostAtOnce).toBe(1);
    // BullMQ alone (a scheduler, no global concurrency): passes overlap.
    const alone = await run(async (queue) => {
      await queue.upsertJobScheduler(
        'momo.subscriptions',
        { every: EVERY_MS },
        { name: 'momo.subscriptions' },
      );
    }, 'subs-alone');
    expect(alone.mostAtOnce).toBeGreaterThan(1);
  }, 60_000);
});
