import { InMemoryJournal } from 'momo-partner-sdk';
import { type TenantCallback, Tenants, tenantOfCallback } from 'momo-partner-sdk/tenants';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
const TEMPLATE = 'https://partner.example/momo/{tenant}/{referenceId}';

function callback(tenant: string, referenceId: string, status = 'SUCCESSFUL') {
  return new Request(`https://partner.example/momo/${tenant}/${referenceId}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ referenceId, status, amount: '5', currency: 'EUR' }),
  });
}

describe('tenants.callbacks: one receiver for all tenants', () => {
  it("routes by the URL's tenant, confirms with that tenant's client, events carry tenant", async () => {
    const sim = createSimulator({ settleMs: 60_000 });
    const resolved: string[] = [];
    const tenants = new Tenants({
      resolve: (id) => {
        resolved.push(id);
        return id.startsWith('merchant-') ? { ...sim.credentials } : undefined;
      },
      shared: { journal: new InMemoryJournal() },
      maxLive: 1,
      callbackUrl: TEMPLATE,
      client: { fetch: sim.fetch },
    });
    const events: TenantCallback[] = [];
    const handle = tenants.callbacks.handler({ onEvent: (event) => void events.push(event) });
    const momo = await tenants.client('merchant-7');
    const { referenceId } = await momo.disbursement.deposit({
      amount: '5',
      currency: 'EUR',
      payee,
    });
    await tenants.client('merchant-8'); // merchant-7 evicted: the journal still knows its deposit

    // Another tenant's URL naming merchant-7's reference id: not found in merchant-8's journal.
    expect((await handle(callback('merchant-8', referenceId))).status).toBe(404);
    expect((await handle(callback('nobody', referenceId))).status).toBe(404);
    const noTenant = new Request(`https://partner.example/${referenceId}`, {
      method: 'PUT',
      body: JSON.stringify({ referenceId, status: 'SUCCESSFUL' }),
    });
    expect((await handle(noTenant)).status).toBe(404);
    expect(events).toEqual([]);

    sim.settle(referenceId, 'SUCCESSFUL');
    const answered = await handle(callback('merchant-7', referenceId));
    expect([200, 202]).toContain(answered.status);
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toMatchObject({ tenant: 'merchant-7', referenceId, status: 'SUCCESSFUL' });
    // The confirming lookup went out with merchant-7's client (made again from its credentials).
    expect(resolved.filter((id) => id === 'merchant-7')).toHaveLength(2);
  });

  it('reads the tenant as the path segment before the reference id', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(tenantOfCallback(`https://p.example/momo/m-1/${id}`)).toBe('m-1');
    expect(tenantOfCallback(`https://p.example/momo/m-1/${id}?callbackToken=x`)).toBe('m-1');
    expect(tenantOfCallback(`https://p.example/momo/${id}`)).toBe('momo');
    expect(tenantOfCallback(`https://p.example/${id}`)).toBeUndefined();
    expect(tenantOfCallback(`https://p.example/momo/%2e%2e/${id}`)).toBeUndefined();
    expect(tenantOfCallback('https://p.example/momo/m-1')).toBeUndefined();
  });
});
