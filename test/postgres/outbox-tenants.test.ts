import { isValidationError, MomoClient } from 'momo-partner-sdk';
import type { PostgresState } from 'momo-partner-sdk/postgres';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PAYEE } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import { type TwoTenants, twoTenants } from '../support/two-tenants';
import { allDelivered, freshShop, payout } from './outbox-support';
import { usePostgres } from './support';

// Issue 40 (DESIGN 10.4): outbox intents carry the tenant, and each is sent with its own
// tenant's client only, two merchants' intents in one shared outbox.
describeWithPostgres('outbox intents carry their tenant (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  let two: TwoTenants;
  beforeEach(async () => {
    two = await twoTenants();
  });
  afterEach(() => two.close());

  async function enqueue(db: PostgresState, key: string, tenant: string) {
    const client = await pg15.pool().connect();
    try {
      await client.query('BEGIN');
      const { referenceId } = await db.outbox.enqueue(client, {
        ...payout(key, PAYEE.ok),
        tenant,
      });
      await client.query('COMMIT');
      return referenceId;
    } finally {
      client.release();
    }
  }

  it("a tenant's relay sends only its own intents; one with tenantClient sends each with its tenant's client", async () => {
    const db = await freshShop(pg15);
    const acmeId = await enqueue(db, 'acme-order', 'acme');
    const zetaId = await enqueue(db, 'zeta-order', 'zeta');
    // The same key under another tenant: refused (its reference id is the other's payment).
    const refused = await enqueue(db, 'acme-order', 'zeta').catch((e: unknown) => e);
    expect(isValidationError(refused) && refused.field === 'key').toBe(true);

    const acmeRelay = db.outbox.start(two.acme, { pollIntervalMs: 50 });
    await vi.waitFor(async () => {
      expect((await db.outbox.get('acme-order'))?.status).toBe('SUCCESSFUL');
    });
    await acmeRelay.stop();
    expect(two.createdWith('acme')).toEqual([acmeId]);
    expect(two.createdWith('zeta')).toEqual([]);
    // zeta's intent untouched by acme's relay: never claimed, never tried.
    expect(await db.outbox.get('zeta-order')).toMatchObject({
      status: 'QUEUED',
      attempts: 0,
      tenant: 'zeta',
    });

    // One relay for every tenant: an operator's client (no tenant) and the tenants' clients.
    const operator = new MomoClient({ ...two.sim.partner('acme'), baseUrl: two.server.url });
    const relay = db.outbox.start(operator, {
      pollIntervalMs: 50,
      tenantClient: (id) => two.tenants.client(id),
    });
    await allDelivered(pg15.pool(), db.schema);
    await relay.stop();
    expect(two.createdWith('zeta')).toEqual([zetaId]);
    expect(two.createdWith('acme')).toEqual([acmeId]);
    expect(two.sim.transaction(zetaId)?.partner).toBe('zeta');
    const payments = [];
    for await (const p of db.outbox.payments()) payments.push([p.key, p.status, p.tenant]);
    expect(payments).toEqual([
      ['acme-order', 'SUCCESSFUL', 'acme'],
      ['zeta-order', 'SUCCESSFUL', 'zeta'],
    ]);
  });

  it('a relay without tenantClient on a client of no tenant leaves tenant intents alone', async () => {
    const db = await freshShop(pg15);
    await enqueue(db, 'acme-order', 'acme');
    const operator = new MomoClient({ ...two.sim.partner('acme'), baseUrl: two.server.url });
    const relay = db.outbox.start(operator, { pollIntervalMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 300)); // several polls
    await relay.stop();
    expect(two.createdWith('acme')).toEqual([]);
    expect(await db.outbox.get('acme-order')).toMatchObject({ status: 'QUEUED', attempts: 0 });
  });
});
