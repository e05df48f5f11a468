import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { MomoClient } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import { addPayments } from 'momo-partner-sdk/bullmq';
import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { transferRows } from '../support/batch-processes';
import { type BullWorkerInput, BullWorkerProcess } from '../support/bullmq-processes';
import { ProviderProcess } from '../support/provider-process';
import { expectReportAgreesWithProvider, untilAllFinal } from './support/bullmq-checks';
import { describeWithRedis, RedisServer } from './support/redis-server';

/**
 * DESIGN 10.5 on BullMQ, on a real redis-server: the provider in its own process, the
 * workers as processes, one SIGKILLed every `killEveryMs` (and replaced, as an
 * orchestrator would). CI size by default (2 loaded cores); MOMO_ENGINE_SCALE=issue runs
 * the issue's: 2,000 items on 8 workers, one killed every 10 s.
 */
const ISSUE = process.env.MOMO_ENGINE_SCALE === 'issue';
const SIZE = ISSUE
  ? { items: 2_000, workers: 8, killEveryMs: 10_000, createsPerSecond: 100 }
  : { items: 600, workers: 4, killEveryMs: 10_000, createsPerSecond: 30 };
const SETTLE_MS = 200;
const SLOW = { timeout: ISSUE ? 900_000 : 400_000 };

const PAYEE = { ok: '46733123999', rejected: '46733123451' };
const INVALID = new Set([17, 111, 222]);
const ITEMS = transferRows(SIZE.items, (i) =>
  INVALID.has(i) ? 'not-a-number' : i % 10 === 3 ? PAYEE.rejected : PAYEE.ok,
);
const SECRET = 'bullmq-processes-secret-0123';

describeWithRedis(
  'BullMQ: workers as processes, one SIGKILLed every 10 s (real redis-server)',
  () => {
    let server: RedisServer;
    let provider: ProviderProcess;
    beforeAll(async () => {
      server = await RedisServer.start();
      provider = await ProviderProcess.start({
        settleMs: SETTLE_MS,
        limits: { createsPerSecond: SIZE.createsPerSecond, lookupsPerSecond: 400 },
      });
    }, 60_000);
    afterAll(async () => {
      await provider?.close();
      await server?.dispose();
    });

    it(
      `${SIZE.items} items on ${SIZE.workers} workers: each created once, none lost, all final, the stored report the provider's`,
      SLOW,
      async () => {
        const redis = new Redis(server.url, { maxRetriesPerRequest: null });
        const queue = new Queue('payouts', { connection: redis });
        const prefix = 'bullmq-kill:';
        const store = redisBatchStore(redis, { prefix });
        const input: BullWorkerInput = {
          simulator: provider.client,
          redisUrl: server.url,
          queue: 'payouts',
          prefix,
          secret: SECRET,
          concurrency: 50,
          createRate: SIZE.createsPerSecond,
          lookupRate: 300,
        };
        const workers: BullWorkerProcess[] = [];
        let kills = 0;
        let done = false;
        try {
          for (let i = 0; i < SIZE.workers; i++) workers.push(new BullWorkerProcess(input));
          await Promise.all(workers.map((w) => w.ready()));
          const batch = 'payroll-2027-01';
          const added = await addPayments(queue, { batch, items: ITEMS, secret: SECRET });
          expect(added.added).toBe(SIZE.items); // the bad ones as reject jobs
          expect(added.rejected.map((r) => r.index)).toEqual([...INVALID]);
          const killing = (async () => {
            while (!done) {
              await new Promise((resolve) => setTimeout(resolve, SIZE.killEveryMs));
              if (done) break;
              const live = workers.filter((w) => w.alive());
              const victim = live[kills % live.length];
              if (!victim) continue;
              await victim.kill();
              kills++;
              // Replaced, as an orchestrator would; the next kill does not wait for it.
              const replacement = new BullWorkerProcess(input);
              workers.push(replacement);
              replacement.ready().catch(() => {});
            }
          })();
          await untilAllFinal(store, queue, batch, SIZE.items, SLOW.timeout - 60_000);
          done = true;
          await killing;
          expect(kills).toBeGreaterThanOrEqual(1);
          const momo = new MomoClient({ ...provider.client });
          const report = await new Batches(momo).report(batch, { store });
          expect(report.summary).toMatchObject({
            total: SIZE.items,
            rejected: INVALID.size,
            failed: ITEMS.filter((_, i) => !INVALID.has(i) && i % 10 === 3).length,
            unresolved: 0,
          });
          await expectReportAgreesWithProvider(provider, report);
          console.log(
            `bullmq processes: ${SIZE.items} items, ${SIZE.workers} workers, ${kills} SIGKILLed`,
          );
        } finally {
          done = true;
          await Promise.all(workers.map((w) => w.close()));
          await queue.close();
          redis.disconnect();
        }
      },
    );
  },
);
