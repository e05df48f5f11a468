import { type BatchStore, MomoClient } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import { expect } from 'vitest';
import type { TwoTenants } from '../support/two-tenants';
import { PAYEE, row } from './harness';

const SECRET = 'tenant-batches-secret-0123456789';

/**
 * Two tenants run a batch of one id on one shared store (issue 40): each item's record and
 * report row carry the tenant whose client ran it; a key the other tenant recorded first is
 * REJECTED, never sent nor adopted (with one secret, both would derive the same reference
 * id for it); each tenant's stored report lists its own items only, an operator's client
 * (no tenant) every item with its tenant.
 */
export async function expectBatchTenantsApart(
  two: TwoTenants,
  store: BatchStore,
  reopen: BatchStore = store,
): Promise<void> {
  const batch = `payroll-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const options = { id: batch, store, secret: SECRET };
  const acmeRun = await new Batches(two.acme).run(
    [row('k1', PAYEE.ok), row('shared', PAYEE.ok)],
    options,
  );
  expect(acmeRun.items.map((i) => [i.key, i.status, i.tenant])).toEqual([
    ['k1', 'SUCCESSFUL', 'acme'],
    ['shared', 'SUCCESSFUL', 'acme'],
  ]);
  const zetaRun = await new Batches(two.zeta).run(
    [row('shared', PAYEE.ok), row('k3', PAYEE.ok)],
    options,
  );
  expect(zetaRun.items.map((i) => [i.key, i.status])).toEqual([
    ['shared', 'REJECTED'],
    ['k3', 'SUCCESSFUL'],
  ]);
  expect(zetaRun.items[0]?.reason).toMatch(/another tenant; not sent/);
  expect(zetaRun.items[1]?.tenant).toBe('zeta');
  // At the provider: zeta's key created only its own item; acme's ids never under zeta's key.
  const acmeIds = acmeRun.items.map((i) => i.referenceId);
  expect(two.createdWith('zeta')).toEqual([zetaRun.items[1]?.referenceId]);
  expect(two.createdWith('acme').sort()).toEqual([...acmeIds].sort());

  // A stored report lists items in the order first recorded (concurrent sends): by key here.
  const byKey = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
  const rows = async (momo: MomoClient) =>
    (await new Batches(momo).report(batch, { store: reopen })).items
      .map((i) => [i.key, i.status, i.tenant])
      .sort(byKey);
  expect(await rows(two.acme)).toEqual([
    ['k1', 'SUCCESSFUL', 'acme'],
    ['shared', 'SUCCESSFUL', 'acme'],
  ]);
  expect(await rows(two.zeta)).toEqual([['k3', 'SUCCESSFUL', 'zeta']]);
  const operator = new MomoClient({ ...two.sim.partner('acme'), baseUrl: two.server.url });
  const all = await new Batches(operator).report(batch, { store: reopen });
  expect(all.items.map((i) => [i.key, i.tenant]).sort(byKey)).toEqual([
    ['k1', 'acme'],
    ['k3', 'zeta'],
    ['shared', 'acme'],
  ]);
}
