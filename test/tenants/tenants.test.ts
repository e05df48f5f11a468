import { InMemoryJournal, isValidationError, MomoClient } from 'momo-partner-sdk';
import { MemoryTokenStore, Tenants, UnknownTenantError } from 'momo-partner-sdk/tenants';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;

function setUp(extra: Partial<ConstructorParameters<typeof Tenants>[0]> = {}) {
  const sim = createSimulator({ settleMs: 0 });
  const resolved: string[] = [];
  const tenants = new Tenants({
    resolve: async (id) => {
      resolved.push(id);
      await new Promise((r) => setTimeout(r, 5));
      return id.startsWith('merchant-') ? { ...sim.credentials } : undefined;
    },
    client: { fetch: sim.fetch, polling: { initialDelayMs: 10, maxDelayMs: 50 } },
    callbackUrl: 'https://partner.example/momo/{tenant}/{referenceId}',
    ...extra,
  });
  return { sim, tenants, resolved };
}

describe('Tenants: clients made lazily, kept LRU', () => {
  it('makes one client for concurrent first calls of one id', async () => {
    const { tenants, resolved } = setUp();
    const clients = await Promise.all(
      Array.from({ length: 20 }, () => tenants.client('merchant-1')),
    );
    expect(new Set(clients).size).toBe(1);
    expect(clients[0]).toBeInstanceOf(MomoClient);
    expect(resolved).toEqual(['merchant-1']);
    expect(tenants.size).toBe(1);
  });

  it('keeps at most maxLive clients, evicting the least recently used', async () => {
    const { tenants, resolved } = setUp({ maxLive: 2 });
    const a = await tenants.client('merchant-a');
    await tenants.client('merchant-b');
    expect(await tenants.client('merchant-a')).toBe(a); // a used: b is now the oldest
    await tenants.client('merchant-c');
    expect(tenants.size).toBe(2);
    expect(await tenants.client('merchant-a')).toBe(a);
    const b = await tenants.client('merchant-b'); // made again: c evicted
    expect(resolved).toEqual(['merchant-a', 'merchant-b', 'merchant-c', 'merchant-b']);
    expect(tenants.size).toBe(2);
    expect(b).toBeInstanceOf(MomoClient);
  });

  it('an evicted client still finishes its calls, and works if a caller still holds it', async () => {
    const { tenants } = setUp({ maxLive: 1 });
    const a = await tenants.client('merchant-a');
    const pending = a.disbursement.deposit({ amount: '5', currency: 'EUR', payee }).wait();
    await tenants.client('merchant-b'); // evicts and closes a
    expect((await pending).status).toBe('SUCCESSFUL');
    const again = await a.disbursement.deposit({ amount: '6', currency: 'EUR', payee }).wait();
    expect(again.status).toBe('SUCCESSFUL');
  });

  it('refuses an unknown tenant, and a path-unsafe id, with typed errors naming them', async () => {
    const { tenants } = setUp();
    await expect(tenants.client('nobody')).rejects.toBeInstanceOf(UnknownTenantError);
    for (const id of ['', '../x', 'a/b', 'a b', '%2e', '.hidden', 'x'.repeat(129), 42]) {
      const error = await tenants.client(id as string).catch((e: unknown) => e);
      expect(isValidationError(error) && error.field === 'tenantId').toBe(true);
    }
    expect(tenants.size).toBe(0);
  });

  it('validates its options, each bad one named', () => {
    const bad = (options: unknown) => {
      try {
        new Tenants(options as ConstructorParameters<typeof Tenants>[0]);
      } catch (error) {
        return isValidationError(error)
          ? error.issues.map((i) => i.path)
          : ['not a ValidationError'];
      }
      return [];
    };
    expect(bad({})).toEqual(['resolve']);
    expect(bad({ resolve: () => undefined, maxLive: 0 })).toEqual(['maxLive']);
    expect(bad({ resolve: () => undefined, limits: { createRate: -1, lookupRate: 'x' } })).toEqual([
      'limits.createRate',
      'limits.lookupRate',
    ]);
    expect(bad({ resolve: () => undefined, globalLimits: { lookupRate: 150 } })).toEqual([
      'globalLimits',
    ]);
    expect(
      bad({ resolve: () => undefined, callbackUrl: 'https://p.example/{referenceId}' }),
    ).toEqual(['callbackUrl']);
  });

  it("fills {tenant} in each tenant's callback URL", async () => {
    const { sim, tenants } = setUp();
    const momo = await tenants.client('merchant-7');
    const { referenceId } = await momo.disbursement.deposit({
      amount: '1',
      currency: 'EUR',
      payee,
    });
    const sent = sim.requests.find((r) => r.method === 'POST' && r.path.includes('/deposit'));
    expect(sent?.headers['x-callback-url']).toBe(
      `https://partner.example/momo/merchant-7/${referenceId}`,
    );
  });
});

describe('Tenants: refresh', () => {
  it('makes a new client from credentials read again; the old one finishes its calls', async () => {
    let key = 'old';
    const resolvedWith: string[] = [];
    const sim = createSimulator({ settleMs: 0 });
    const tenants = new Tenants({
      resolve: () => {
        resolvedWith.push(key);
        return { ...sim.credentials };
      },
      client: { fetch: sim.fetch, polling: { initialDelayMs: 10, maxDelayMs: 20 } },
    });
    const old = await tenants.client('merchant-1');
    const inFlight = old.disbursement.deposit({ amount: '1', currency: 'EUR', payee }).wait();
    key = 'new';
    await tenants.refresh('merchant-1');
    const fresh = await tenants.client('merchant-1');
    expect(fresh).not.toBe(old);
    expect(tenants.size).toBe(1);
    expect((await inFlight).status).toBe('SUCCESSFUL');
    expect(resolvedWith).toEqual(['old', 'new']);
    await tenants.refresh('merchant-9'); // not live: nothing read
    expect(resolvedWith).toEqual(['old', 'new']);
  });
});

describe('Tenants: the shared journal', () => {
  it('records each entry with its tenant; a tenant made again resumes only its own', async () => {
    const sim = createSimulator({ settleMs: 60_000 }); // stays PENDING until settled
    const journal = new InMemoryJournal();
    const tenants = new Tenants({
      resolve: () => ({ ...sim.credentials }),
      shared: { journal },
      maxLive: 1,
      client: { fetch: sim.fetch, polling: { initialDelayMs: 10, maxDelayMs: 20 } },
    });
    const a = await tenants.client('merchant-a');
    const { referenceId: ofA } = await a.disbursement.deposit({
      amount: '1',
      currency: 'EUR',
      payee,
    });
    const b = await tenants.client('merchant-b'); // a evicted, its deposit pending
    const { referenceId: ofB } = await b.disbursement.deposit({
      amount: '2',
      currency: 'EUR',
      payee,
    });
    expect((await journal.get(ofA))?.tenant).toBe('merchant-a');
    expect((await journal.get(ofB))?.tenant).toBe('merchant-b');
    const again = await tenants.client('merchant-a'); // made again: resumes a's pending one
    expect((await again.journal.pending()).map((e) => e.referenceId)).toEqual([ofA]);
    sim.settle(ofA, 'SUCCESSFUL');
    await expect
      .poll(async () => (await journal.get(ofA))?.outcome, { timeout: 5_000 })
      .toBe('SUCCESSFUL');
    expect((await journal.get(ofB))?.outcome).toBeUndefined(); // b's left to b
  });
});

describe('MemoryTokenStore', () => {
  it('forgets an expired token and deletes only the token it is told', () => {
    const store = new MemoryTokenStore();
    const token = {
      accessToken: 't1',
      tokenType: 'access_token',
      issuedAt: 0,
      expiresAt: Date.now() + 60_000,
    };
    store.set('k', token);
    store.delete('k', 'another');
    expect(store.get('k')).toEqual(token);
    store.delete('k', 't1');
    expect(store.get('k')).toBeUndefined();
    store.set('old', { ...token, expiresAt: Date.now() - 1 });
    expect(store.get('old')).toBeUndefined();
  });
});
