import { Batches } from 'momo-partner-sdk/batches';
import { reconcile } from 'momo-partner-sdk/reconcile';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PAYEE, row } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { allDelivered, freshShop, payout } from './outbox-support';
import { usePostgres } from './support';

// Issue 40: reconcile over a state two tenants share (batch store and outbox on one
// PostgreSQL schema) lists only its client's tenant's payments, looked up with its key.
describeWithPostgres("reconcile reads its client's tenant's records only (real PostgreSQL)", () => {
  const pg15 = usePostgres();
  let two: TwoTenants;
  beforeEach(async () => {
    two = await twoTenants();
  });
  afterEach(() => two.close());

  it("lists acme's batch item and outbox payment, never zeta's", async () => {
    const db = await freshShop(pg15);
    const store = db.batchStore;
    const secret = 'reconcile-tenants-secret-0123456789';
    await new Batches(two.acme).run([row('a1', PAYEE.ok)], { id: 'acme-b', store, secret });
    await new Batches(two.zeta).run([row('z1', PAYEE.ok)], { id: 'zeta-b', store, secret });
    for (const tenant of ['acme', 'zeta']) {
      const client = await pg15.pool().connect();
      try {
        await client.query('BEGIN');
        await db.outbox.enqueue(client, { ...payout(`${tenant}-order`, PAYEE.ok), tenant });
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }
    const relay = db.outbox.start(two.acme, {
      pollIntervalMs: 50,
      tenantClient: (id) => two.tenants.client(id),
    });
    await allDelivered(pg15.pool(), db.schema);
    await relay.stop();

    const before = two.sim.requests.length;
    const result = await reconcile(two.acme, [], { batchStore: store, outbox: db.outbox });
    const listed = result.items.map((i) => [i.verdict, i.record.source, i.record.key]);
    expect(listed.sort()).toEqual([
      ['MISSING_FROM_BOOKS', 'batch', 'a1'],
      ['MISSING_FROM_BOOKS', 'outbox', 'acme-order'],
    ]);
    expect(result.items.every((i) => i.found?.status === 'SUCCESSFUL')).toBe(true);
    const keys = new Set(
      two.sim.requests.slice(before).map((r) => r.headers['ocp-apim-subscription-key']),
    );
    expect([...keys]).toEqual(['acme-key']);
  });
});
