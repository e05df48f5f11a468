import { type Journal, MomoClient } from 'momo-partner-sdk';
import { reconcile } from 'momo-partner-sdk/reconcile';
import { createSimulator } from 'momo-partner-sdk/testing';
import { expect } from 'vitest';
import { PARTNERS } from './two-tenants';

const payee = { partyIdType: 'MSISDN', partyId: '46733100001' } as const;

/**
 * TN8 on any journal: two clients made by hand (no `Tenants`, so no tenant journal view),
 * each with `tenant` and both on `journal`. Every entry each records carries its tenant;
 * `reconcile` of one lists its own payment only; `resume` by the other leaves it alone
 * (never looked up with the other partner's key, so never marked NOT_FOUND by its 404).
 */
export async function expectHandMadeTenantsStamped(journal: Journal): Promise<void> {
  // Still pending: settled only when the test says so.
  const sim = createSimulator({ settleMs: 3_600_000, partners: PARTNERS });
  const client = (tenant: 'acme' | 'zeta') =>
    new MomoClient({
      ...sim.partner(tenant),
      fetch: sim.fetch,
      journal,
      tenant,
      polling: { initialDelayMs: 10, maxDelayMs: 20, timeoutMs: 200 },
    });
  const [acme, zeta] = [client('acme'), client('zeta')];
  try {
    const deposit = { amount: '7', currency: 'EUR', payee };
    const { referenceId: acmeId } = await acme.disbursement.deposit(deposit);
    const { referenceId: zetaId } = await zeta.disbursement.deposit(deposit);
    expect((await journal.get(acmeId))?.tenant).toBe('acme');
    expect((await journal.get(zetaId))?.tenant).toBe('zeta');

    const { items } = await reconcile(acme, [], { journal });
    expect(items.map((item) => [item.verdict, item.record.referenceId])).toEqual([
      ['MISSING_FROM_BOOKS', acmeId],
    ]);

    const before = sim.requests.length;
    const outcomes = await zeta.journal.resume();
    const byId = new Map(outcomes.map((o) => [o.entry.referenceId, o.status]));
    expect(byId.get(acmeId)).toBe('OTHER_PLATFORM');
    const asked = sim.requests.slice(before).filter((r) => r.path.includes(acmeId));
    expect(asked).toEqual([]);
    expect((await journal.get(acmeId))?.outcome).toBeUndefined();

    sim.settle(acmeId, 'SUCCESSFUL');
    const [mine] = await acme.journal.resume();
    expect([mine?.entry.referenceId, mine?.status]).toEqual([acmeId, 'SUCCESSFUL']);
  } finally {
    acme.close();
    zeta.close();
  }
}
