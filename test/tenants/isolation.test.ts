/**
 * Tenants kept apart, with the provider in its own process (issue 40): every request the
 * simulator received checked there (its key's partner against its API user's or token's),
 * every payment held under its tenant's partner, one token per tenant and product.
 */
import { InMemoryJournal } from 'momo-partner-sdk';
import { Tenants } from 'momo-partner-sdk/tenants';
import { afterEach, describe, expect, it } from 'vitest';
import { TenantProvider } from '../support/tenant-provider';

const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
let provider: TenantProvider | undefined;

afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe('tenants kept apart at the provider', () => {
  it("50 tenants x 20 payments interleaved: 0 requests with another tenant's key or token", async () => {
    const sim = await TenantProvider.start({ partners: 50, settleMs: 0 });
    provider = sim;
    const journal = new InMemoryJournal({ maxEntries: 5_000 });
    const tenants = new Tenants({
      resolve: (id) => sim.credentials(id),
      shared: { journal },
      maxLive: 100,
      client: { polling: { initialDelayMs: 20, maxDelayMs: 100 } },
    });
    const ids = Array.from({ length: 50 }, (_, i) => `merchant-${i}`);
    // Interleaved: round r sends payment r of every tenant at once, two products each.
    const results: { tenant: string; status: string }[] = [];
    for (let round = 0; round < 20; round++) {
      const sent = ids.map(async (tenant) => {
        const momo = await tenants.client(tenant);
        const op =
          round % 2 === 0
            ? momo.disbursement.deposit({
                amount: '10',
                currency: 'EUR',
                externalId: `${tenant}/${round}`,
                payee,
              })
            : momo.collection.requestToPay({
                amount: '10',
                currency: 'EUR',
                externalId: `${tenant}/${round}`,
                payer: payee,
              });
        const result = await op.wait();
        results.push({ tenant, status: result.status });
      });
      await Promise.all(sent);
    }
    expect(results).toHaveLength(1_000);
    expect(results.filter((r) => r.status !== 'SUCCESSFUL')).toEqual([]);

    const audit = await sim.audit();
    console.log(
      `isolation: ${audit.requests} requests checked at the provider, ${audit.mixed} mixed, ${audit.unknownKey} with an unknown key`,
    );
    expect(audit.mixed).toBe(0);
    expect(audit.unknownKey).toBe(0);
    // One token per tenant and product: 50 x 2 token requests, one token on each's calls.
    expect(Object.keys(audit.tokenRequests)).toHaveLength(100);
    expect(Object.values(audit.tokenRequests).every((n) => n === 1)).toBe(true);
    expect(Object.values(audit.tokens).every((n) => n === 1)).toBe(true);
    // Each payment held under its own tenant's partner.
    const held = await sim.transactions();
    expect(held).toHaveLength(1_000);
    const misplaced = held.filter(
      (t) => `p-${t.externalId?.split('/')[0]?.slice(9)}` !== t.partner,
    );
    expect(misplaced).toEqual([]);
    // And the journal knows each payment's tenant.
    for (const t of held.slice(0, 50)) {
      expect((await journal.get(t.referenceId))?.tenant).toBe(t.externalId?.split('/')[0]);
    }
    tenants.close();
  }, 120_000);

  it('refresh during 100 in-flight calls, the provider accepting both keys: 0 failed', async () => {
    const sim = await TenantProvider.start({ partners: 1, settleMs: 200, rotating: true });
    provider = sim;
    let rotated = false;
    const tenants = new Tenants({
      resolve: (id) => sim.credentials(id, rotated ? 'last' : 'first'),
      client: { polling: { initialDelayMs: 50, maxDelayMs: 100 } },
    });
    const pay = async (i: number) => {
      const momo = await tenants.client('merchant-0');
      return momo.disbursement
        .deposit({ amount: '1', currency: 'EUR', externalId: `merchant-0/${i}`, payee })
        .wait();
    };
    const before = Array.from({ length: 100 }, (_, i) => pay(i));
    rotated = true;
    await tenants.refresh('merchant-0');
    const after = Array.from({ length: 20 }, (_, i) => pay(100 + i));
    const settled = await Promise.allSettled([...before, ...after]);
    const failed = settled.filter(
      (s) => s.status === 'rejected' || s.value.status !== 'SUCCESSFUL',
    );
    expect(failed).toEqual([]);
    const audit = await sim.audit();
    expect(audit.mixed).toBe(0);
    // The calls made after refresh went out with the new key: its own token was asked for.
    const held = await sim.transactions();
    expect(held).toHaveLength(120);
    expect(audit.tokenRequests['p-0/disbursement']).toBe(2); // one token per key
    tenants.close();
  }, 60_000);
});
