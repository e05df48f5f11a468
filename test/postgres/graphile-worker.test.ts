import { MomoClient } from 'momo-partner-sdk';
import { Batches, type BatchItem } from 'momo-partner-sdk/batches';
import { addPayments } from 'momo-partner-sdk/graphile-worker';
import type { PostgresState } from 'momo-partner-sdk/postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Instance, until } from '../redis/support/instances';
import { transferRows } from '../support/batch-processes';
import { describeWithPostgres } from '../support/postgres-server';
import { ProviderProcess } from '../support/provider-process';
import {
  expectCreatedOnce,
  type GraphileWorkerInput,
  itemJobRows,
  startWorker,
  untilDrained,
  untilFinal,
} from './graphile-support';
import { usePostgres } from './support';

// momo-partner-sdk/graphile-worker on a real PostgreSQL: graphile-worker 0.17's own
// `run` in worker processes (test/postgres/workers/graphile-worker.ts), the provider in
// a process of its own, the outcomes read from the batch store by `Batches.report`.
const SECRET = 'graphile-worker-test-secret';
const SLOW = { timeout: 180_000 };
const PAYEE = '46733123999';

describeWithPostgres(
  'graphile-worker: payments as jobs (real PostgreSQL, worker processes)',
  () => {
    const pg15 = usePostgres();
    const held: { provider?: ProviderProcess; workers: Instance[] } = { workers: [] };
    let state: PostgresState & { schema: string };
    let input: GraphileWorkerInput;
    let utils: import('graphile-worker').WorkerUtils;

    beforeAll(async () => {
      held.provider = await ProviderProcess.start({
        settleMs: 150,
        limits: { createsPerSecond: 50, lookupsPerSecond: 200 },
      });
      state = await pg15.freshState();
      const workerSchema = `${state.schema}_gw`;
      const { makeWorkerUtils } = await import('graphile-worker');
      utils = await makeWorkerUtils({ pgPool: pg15.pool(), schema: workerSchema });
      await utils.migrate();
      input = {
        simulator: held.provider.client,
        config: pg15.server().config,
        schema: state.schema,
        workerSchema,
        secret: SECRET,
        concurrency: 8,
        // Two workers, each at half the provider's caps.
        createRate: 25,
        lookupRate: 100,
      };
      held.workers = await Promise.all([startWorker(input), startWorker(input)]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(held.workers.map((w) => w.close()));
      await utils?.release();
      await held.provider?.close();
    });

    const provider = () => held.provider as ProviderProcess;
    const report = (batch: string) =>
      new Batches(new MomoClient(provider().client)).report(batch, { store: state.batchStore });
    const ITEMS: BatchItem[] = [
      ...transferRows(40, () => PAYEE),
      {
        key: 'bad-amount',
        body: { amount: '-5', currency: 'EUR', payee: { partyIdType: 'MSISDN', partyId: PAYEE } },
      },
      {
        key: 'bad-payee',
        body: { amount: '5', currency: 'EUR', payee: { partyIdType: 'MSISDN', partyId: '' } },
      },
    ];

    it(
      'one job per item: each created once, all final; a bad item REJECTED with its reason, never sent',
      SLOW,
      async () => {
        const added = await addPayments(utils, {
          batch: 'payroll-1',
          items: ITEMS,
          secret: SECRET,
        });
        expect(added.added).toBe(42);
        expect(added.rejected.map((r) => r.key)).toEqual(['bad-amount', 'bad-payee']);
        await untilFinal(state.batchStore, 'payroll-1', 42, 120_000);
        const read = await report('payroll-1');
        expect(read.summary).toMatchObject({
          total: 42,
          successful: 40,
          rejected: 2,
          unresolved: 0,
        });
        const bad = read.items.filter((i) => i.status === 'REJECTED');
        expect(bad.map((i) => [i.key, i.reason?.split(':')[0]])).toEqual([
          ['bad-amount', 'body.amount'],
          ['bad-payee', 'body.payee.partyId'],
        ]);
        await expectCreatedOnce(provider(), read, 0);
      },
    );

    it(
      'a completed job re-added, then the whole batch added again: nothing is sent again',
      SLOW,
      async () => {
        await untilDrained(pg15.pool(), input.workerSchema);
        const before = (await provider().creates('/disbursement')).length;
        const first = await report('payroll-1');
        await addPayments(utils, { batch: 'payroll-1', items: ITEMS.slice(0, 1), secret: SECRET });
        await untilDrained(pg15.pool(), input.workerSchema);
        await addPayments(utils, { batch: 'payroll-1', items: ITEMS, secret: SECRET });
        await untilDrained(pg15.pool(), input.workerSchema);
        expect((await provider().creates('/disbursement')).length).toBe(before);
        expect(await report('payroll-1')).toEqual(first);
      },
    );

    it(
      'a changed item under a used key is REJECTED, never sent; the key keeps its first payment',
      SLOW,
      async () => {
        const before = (await provider().creates('/disbursement')).length;
        const changed = { ...ITEMS[3], body: { ...(ITEMS[3]?.body as object), amount: '999.00' } };
        await addPayments(utils, {
          batch: 'payroll-1',
          items: [changed as BatchItem],
          secret: SECRET,
        });
        await until(
          () =>
            held.workers.some((w) =>
              w.events.some((e) => e.name === 'REJECTED' && e.referenceId.startsWith('row-3 ')),
            ),
          60_000,
        );
        await untilDrained(pg15.pool(), input.workerSchema);
        expect((await provider().creates('/disbursement')).length).toBe(before);
        const row3 = (await report('payroll-1')).items.find((i) => i.key === 'row-3');
        expect(row3?.status).toBe('SUCCESSFUL');
      },
    );

    it(
      'a worker stopped past the lease holding jobs (graphile-worker keeps them locked 4 h): its items end final by the others, nothing sent twice',
      SLOW,
      async () => {
        // A third worker takes jobs first, then is SIGSTOPped: its jobs stay locked.
        const stalled = await startWorker(input);
        const items = transferRows(60, () => PAYEE).map((i) => ({ ...i, key: `s-${i.key}` }));
        for (const i of items) (i.body as { externalId: string }).externalId = i.key;
        await addPayments(utils, { batch: 'payroll-2', items, secret: SECRET });
        await until(() => stalled.events.length > 0, 60_000);
        const pid = await stalled.call<number>('pid');
        process.kill(pid, 'SIGSTOP');
        try {
          const held0 = (await itemJobRows(pg15.pool(), input.workerSchema)).filter(
            (r) => r.locked,
          );
          await untilFinal(state.batchStore, 'payroll-2', 60, 120_000);
          // The stopped worker's jobs are still locked: the sweep retired them (key cleared,
          // attempts used up: never run again) and queued new ones the others ran.
          const rows = await itemJobRows(pg15.pool(), input.workerSchema);
          const retired = rows.filter((r) => r.locked && r.key === null);
          expect(retired.length).toBeGreaterThan(0);
          expect(retired.every((r) => r.attempts === r.maxAttempts)).toBe(true);
          expect(held0.length).toBeGreaterThan(0);
        } finally {
          process.kill(pid, 'SIGCONT');
        }
        await untilDrained(pg15.pool(), input.workerSchema);
        await stalled.close();
        const read = await report('payroll-2');
        expect(read.summary).toMatchObject({ total: 60, successful: 60, unresolved: 0 });
        // Created once each; a second creating call (409, adopted) only for an item the
        // stopped worker had sent but not recorded: at most its 8 jobs.
        await expectCreatedOnce(provider(), read, 8);
      },
    );
  },
);
