import { MomoClient } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import { addPayments } from 'momo-partner-sdk/graphile-worker';
import { expect, it } from 'vitest';
import type { Instance } from '../redis/support/instances';
import { TRANSFERS, transferRows } from '../support/batch-processes';
import { expectEveryWorkerPaused, pauseWindowOf, refuseOneWhenBusy } from '../support/pause-window';
import { describeWithPostgres } from '../support/postgres-server';
import { ProviderProcess } from '../support/provider-process';
import { expectCreatedOnce, startWorker, untilFinal } from './graphile-support';
import { usePostgres } from './support';

/**
 * DESIGN 10.5 on graphile-worker: "a 429 pausing every worker's creating calls". Worker
 * processes share one rate budget on PostgreSQL (`createPostgresState(pool).rateBudget`);
 * the provider, in its own process, answers one creating call 429 `Retry-After: 4` while
 * all are busy: no creating call from any worker arrives in the pause past the grace for
 * those already on their way (test/support/pause-window.ts).
 */
const WORKERS = 4;
const ITEMS = 240;
const CREATE_RATE = 20;
const SECRET = 'graphile-worker-pause-secret';

describeWithPostgres('graphile-worker: a 429 pauses every worker process (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it(`${WORKERS} workers at ${CREATE_RATE}/s together: none sends during the pause; each item created once`, {
    timeout: 240_000,
  }, async () => {
    // The provider's cap above the shared rate: the one 429 is the injected one.
    const provider = await ProviderProcess.start({
      settleMs: 100,
      limits: { createsPerSecond: 100, lookupsPerSecond: 1_000 },
    });
    const state = await pg15.freshState();
    const workerSchema = `${state.schema}_gw`;
    const { makeWorkerUtils } = await import('graphile-worker');
    const utils = await makeWorkerUtils({ pgPool: pg15.pool(), schema: workerSchema });
    const workers: Instance[] = [];
    try {
      await utils.migrate();
      const input = {
        simulator: provider.client,
        config: pg15.server().config,
        schema: state.schema,
        workerSchema,
        secret: SECRET,
        concurrency: 20,
        createRate: CREATE_RATE,
        lookupRate: 200,
      };
      workers.push(
        ...(await Promise.all(Array.from({ length: WORKERS }, () => startWorker(input)))),
      );
      const batch = 'payroll-pause';
      const items = transferRows(ITEMS, () => '46733123999');
      await addPayments(utils, { batch, items, secret: SECRET });
      const before = await refuseOneWhenBusy(provider, TRANSFERS, 40);
      await untilFinal(state.batchStore, batch, ITEMS, 180_000);

      const window = await pauseWindowOf(provider, TRANSFERS, before);
      expectEveryWorkerPaused(window, WORKERS);
      const report = await new Batches(new MomoClient(provider.client)).report(batch, {
        store: state.batchStore,
      });
      expect(report.summary).toMatchObject({ total: ITEMS, successful: ITEMS, unresolved: 0 });
      // The refused call was sent again under its id after the pause: one creating call
      // more for that item, no second payment.
      await expectCreatedOnce(provider, report, 1);
      console.info(
        `[graphile-worker pause] 429 on ${window.refused.key}: ${window.early} arrivals within the grace, ${window.late.length} in the pause, ${window.after} after it`,
      );
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await utils.release();
      await provider.close();
    }
  });
});
