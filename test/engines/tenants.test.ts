import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareItems, runPaymentJob } from '../../src/engines';
import { PAYEE, row } from '../batches/harness';
import { type TwoTenants, twoTenants } from '../support/two-tenants';

// Issue 40 on the job engines' path (src/engines, which the BullMQ and graphile-worker
// adapters run): a job's item carries the tenant of the worker's client, and a worker of
// another tenant neither sends nor adopts it.
const secret = 'engine-secret-0123456789';
let two: TwoTenants;
beforeEach(async () => {
  two = await twoTenants();
});
afterEach(() => two.close());

describe('payment jobs carry their tenant', () => {
  it("records the worker's tenant; another tenant's worker rejects the job, sending nothing", async () => {
    const store = memoryBatchStore();
    const ctx = { secret, store };
    const { jobs } = await prepareItems({ batch: 'jobs', items: [row('k', PAYEE.ok)], secret });
    const data = jobs[0]?.data as NonNullable<(typeof jobs)[0]>['data'];
    const paid = await runPaymentJob(two.acme, ctx, data);
    expect(paid).toMatchObject({ status: 'SUCCESSFUL', tenant: 'acme' });
    const other = await runPaymentJob(two.zeta, ctx, data);
    expect(other).toMatchObject({ status: 'REJECTED', key: 'k' });
    expect(other.reason).toMatch(/another tenant; not sent/);
    expect(two.createdWith('zeta')).toEqual([]);
    // A bad item's reject job records the rejecting worker's tenant.
    const bad = await prepareItems({ batch: 'jobs', items: [{ key: 'bad', body: {} }], secret });
    const rejected = await runPaymentJob(two.zeta, ctx, bad.jobs[0]?.data as typeof data);
    expect(rejected.status).toBe('REJECTED');
    const zetaRows = (await new Batches(two.zeta).report('jobs', { store })).items;
    expect(zetaRows.map((i) => [i.key, i.status, i.tenant])).toEqual([['bad', 'REJECTED', 'zeta']]);
    const acmeRows = (await new Batches(two.acme).report('jobs', { store })).items;
    expect(acmeRows.map((i) => [i.key, i.status, i.tenant])).toEqual([['k', 'SUCCESSFUL', 'acme']]);
  });
});
