import { Batches } from 'momo-partner-sdk/batches';
import { addPayments, paymentTasks } from 'momo-partner-sdk/graphile-worker';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PAYEE, row } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { usePostgres } from './support';

// Issue 40 on graphile-worker (real PostgreSQL, graphile-worker's `run` in this process):
// the item a tenant's worker paid carries its tenant in the batch store.
const SECRET = 'graphile-tenants-secret-0123';

describeWithPostgres('graphile-worker: payment jobs carry their tenant (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  let two: TwoTenants;
  beforeEach(async () => {
    two = await twoTenants();
  });
  afterEach(() => two.close());

  it("a tenant's worker records its tenant on the item; another tenant reads none of it", async () => {
    const state = await pg15.freshState();
    const store = state.batchStore;
    const schema = `${state.schema}_gw`;
    const { makeWorkerUtils, run } = await import('graphile-worker');
    const utils = await makeWorkerUtils({ pgPool: pg15.pool(), schema });
    await utils.migrate();
    const runner = await run({
      pgPool: pg15.pool(),
      schema,
      concurrency: 2,
      noHandleSignals: true,
      pollInterval: 100,
      taskList: paymentTasks(two.acme, { secret: SECRET, store }),
    });
    try {
      await addPayments(utils, { batch: 'acme-gw', items: [row('a1', PAYEE.ok)], secret: SECRET });
      await vi.waitFor(
        async () => {
          const rows = (await new Batches(two.acme).report('acme-gw', { store })).items;
          expect(rows.map((i) => [i.key, i.status, i.tenant])).toEqual([
            ['a1', 'SUCCESSFUL', 'acme'],
          ]);
        },
        { timeout: 30_000, interval: 200 },
      );
      await expect(new Batches(two.zeta).report('acme-gw', { store })).rejects.toThrow(
        /not a batch with recorded items/,
      );
      expect(two.createdWith('zeta')).toEqual([]);
    } finally {
      await runner.stop();
      await utils.release();
    }
  }, 60_000);
});
