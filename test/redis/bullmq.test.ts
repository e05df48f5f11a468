import { type Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { MomoClient } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import { addPayments, type PaymentJobResult } from 'momo-partner-sdk/bullmq';
import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TRANSFERS, transferRows } from '../support/batch-processes';
import { type BullWorkerInput, BullWorkerProcess } from '../support/bullmq-processes';
import { ProviderProcess } from '../support/provider-process';
import {
  expectReportAgreesWithProvider,
  recordsOf,
  untilAllFinal,
  untilDrained,
} from './support/bullmq-checks';
import { describeWithRedis, RedisServer } from './support/redis-server';

// DESIGN 10.5 on BullMQ, on a real redis-server, the provider and the workers in
// processes of their own: a job run twice (stalled past its lock, a completed one
// re-added, the queue emptied and the items added again) sends nothing twice; a changed
// item under a used key, and a bad item, are REJECTED.
const SLOW = { timeout: 240_000 };
const PAYEE = { ok: '46733123999', pending: '46733123453' };
const SECRET = 'bullmq-scenarios-secret-0123';
const PREFIX = 'bullmq-scenarios:';

let server: RedisServer;
let provider: ProviderProcess;
let redis: Redis;
let queue: Queue;
const workers: BullWorkerProcess[] = [];

const input = (): BullWorkerInput => ({
  simulator: provider.client,
  redisUrl: server.url,
  queue: 'payouts',
  prefix: PREFIX,
  secret: SECRET,
  concurrency: 50,
  createRate: 100,
  lookupRate: 200,
});

async function startWorker(): Promise<BullWorkerProcess> {
  const worker = new BullWorkerProcess(input());
  workers.push(worker);
  await worker.ready();
  return worker;
}

async function returned(jobId: string): Promise<PaymentJobResult> {
  const job = (await queue.getJob(jobId)) as Job;
  return job.returnvalue as PaymentJobResult;
}

describeWithRedis('BullMQ: a job run twice sends nothing twice (real redis-server)', () => {
  beforeAll(async () => {
    server = await RedisServer.start();
    provider = await ProviderProcess.start({
      settleMs: 100,
      limits: { createsPerSecond: 200, lookupsPerSecond: 400 },
    });
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    queue = new Queue('payouts', { connection: redis });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await queue?.close();
    redis?.disconnect();
    await provider?.close();
    await server?.dispose();
  });

  it(
    'a worker stopped past its lock: its stalled jobs run on another worker, then it goes on; each item created once',
    SLOW,
    async () => {
      const store = redisBatchStore(redis, { prefix: PREFIX });
      const items = transferRows(20, () => PAYEE.pending).map((item) => ({
        key: `stall-${item.key}`,
        body: { ...(item.body as object), externalId: `stall-${item.key}` },
      }));
      const stopped = await startWorker();
      await addPayments(queue, { batch: 'stall', items, secret: SECRET });
      // Every item sent and awaited (pending at the provider) by the one worker.
      for (;;) {
        const records = await recordsOf(store, 'stall');
        if ([...records.values()].filter((r) => r.outcome?.status === 'SENT').length === 20) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      stopped.stop(); // SIGSTOP: its locks and claims run out unrenewed
      const other = await startWorker();
      for (const record of (await recordsOf(store, 'stall')).values()) {
        await provider.settle(record.referenceId, 'SUCCESSFUL');
      }
      await untilAllFinal(store, queue, 'stall', 20, 180_000);
      expect(other.completed).toBe(20); // each stalled job ran again there
      stopped.resume(); // it goes on with what it held: fenced out, it records nothing
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const momo = new MomoClient({ ...provider.client });
      const report = await new Batches(momo).report('stall', { store });
      expect(report.summary).toMatchObject({ total: 20, successful: 20, unresolved: 0 });
      const { calls } = await expectReportAgreesWithProvider(provider, report);
      const stallCalls = calls.filter((c) => c.key?.startsWith('stall-'));
      expect(stallCalls).toHaveLength(20); // one creating call each: taken over SENT, only looked up
      await stopped.close();
      await other.close();
    },
  );

  it(
    'a completed job re-added, then the queue emptied and the batch added again: nothing sent again; a changed item and a bad one REJECTED',
    SLOW,
    async () => {
      const store = redisBatchStore(redis, { prefix: PREFIX });
      await startWorker();
      await startWorker();
      const batch = 'payroll-again';
      const items = transferRows(50, () => PAYEE.ok);
      const first = await addPayments(queue, { batch, items, secret: SECRET });
      await untilAllFinal(store, queue, batch, 50, 120_000);
      const sent = (await provider.creates(TRANSFERS)).filter((c) => c.key?.startsWith('row-'));
      expect(sent).toHaveLength(50);

      // A completed job run again (BullMQ's retry of a completed job).
      const prepared = (await queue.getJobs(['completed'])).filter(
        (j) => (j.data as { batch?: string }).batch === batch,
      );
      const one = prepared[0] as Job;
      await one.retry('completed');
      await untilDrained(queue, 60_000);
      expect((await returned(one.id as string)).status).toBe('SUCCESSFUL');

      // The queue emptied (every job gone) and the same items added again.
      await queue.obliterate({ force: true });
      const again = await addPayments(queue, { batch, items, secret: SECRET });
      expect(again.added).toBe(first.added);
      await untilDrained(queue, 120_000);
      const completed = await queue.getJobs(['completed']);
      expect(completed).toHaveLength(50);
      for (const job of completed)
        expect((job.returnvalue as PaymentJobResult).status).toBe('SUCCESSFUL');

      // A changed item under a used key, and a bad item: REJECTED, nothing sent.
      const changed = { ...(items[0] as (typeof items)[0]) };
      changed.body = { ...(changed.body as object), amount: '99.00' };
      const bad = { key: 'bad-row', body: { amount: 'ten', currency: 'EUR' } };
      const added = await addPayments(queue, { batch, items: [changed, bad], secret: SECRET });
      expect(added.rejected.map((r) => r.key)).toEqual(['bad-row']);
      await untilDrained(queue, 60_000);
      const results = (await queue.getJobs(['completed']))
        .filter((j) => {
          const data = j.data as { key: string; body?: { amount?: string } };
          return data.key === 'bad-row' || data.body?.amount === '99.00';
        })
        .map((j) => j.returnvalue as PaymentJobResult);
      expect(results.map((r) => [r.key, r.status]).sort()).toEqual([
        ['bad-row', 'REJECTED'],
        ['row-0', 'REJECTED'],
      ]);
      expect(results.find((r) => r.key === 'row-0')?.reason).toContain('used in this batch');

      const momo = new MomoClient({ ...provider.client });
      const report = await new Batches(momo).report(batch, { store });
      expect(report.summary).toMatchObject({ total: 51, successful: 50, rejected: 1 });
      expect(report.items.find((i) => i.key === 'bad-row')).toMatchObject({
        status: 'REJECTED',
        reason: expect.stringContaining('amount'),
      });
      await expectReportAgreesWithProvider(provider, report);
      const after = (await provider.creates(TRANSFERS)).filter((c) => c.key?.startsWith('row-'));
      expect(after).toEqual(sent); // not one creating call more
    },
  );
});
