import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The simulator keeps several partners apart (createSimulator({ partners })): each
// subscription key with its API users, caps and transactions. Real HTTP on loopback,
// raw requests where a client would never send the mix (another partner's token).
const ACME = { id: '8a1c2e3f-4b5d-4e6f-8a7b-9c0d1e2f3a4b', key: 'acme-api-key' };
const ZETA = { id: '9b2d3f40-5c6e-4f70-9b8c-0d1e2f3a4b5c', key: 'zeta-api-key' };
/** A fixed clock: the caps count in the simulator's time, so no second passes by chance. */
const clock = { now: () => 1_800_000_000_000 };
const sim = createSimulator({
  settleMs: 0,
  clock,
  partners: [
    { name: 'acme', subscriptionKey: ['acme-key', 'acme-key-next'], apiUsers: [ACME] },
    {
      name: 'zeta',
      subscriptionKey: 'zeta-key',
      apiUsers: [ZETA],
      limits: { lookupsPerSecond: 2 },
    },
  ],
});
let server: ListeningServer;
beforeAll(async () => {
  server = await sim.listen();
});
afterAll(() => server.close());

const basic = (user: { id: string; key: string }) =>
  `Basic ${Buffer.from(`${user.id}:${user.key}`).toString('base64')}`;

async function token(user: { id: string; key: string }, subscriptionKey: string) {
  const response = await fetch(`${server.url}/disbursement/token/`, {
    method: 'POST',
    headers: { authorization: basic(user), 'ocp-apim-subscription-key': subscriptionKey },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function get(path: string, bearer: string, subscriptionKey: string) {
  return fetch(`${server.url}${path}`, {
    headers: {
      authorization: `Bearer ${bearer}`,
      'ocp-apim-subscription-key': subscriptionKey,
      'x-target-environment': 'sandbox',
    },
  });
}

const deposit = {
  amount: '10',
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN' as const, partyId: '46733123459' },
};

describe('several partners in one simulator', () => {
  it('each partner pays with its own credentials; its transactions carry it', async () => {
    const acme = sim.client({ ...sim.partner('acme'), fetch: sim.fetch });
    const zeta = sim.client({ ...sim.partner('zeta'), fetch: sim.fetch });
    const plain = sim.client();
    const [a, z, d] = await Promise.all([
      acme.disbursement.deposit(deposit),
      zeta.disbursement.deposit(deposit),
      plain.disbursement.deposit(deposit),
    ]);
    expect(sim.transaction(a.referenceId)?.partner).toBe('acme');
    expect(sim.transaction(z.referenceId)?.partner).toBe('zeta');
    expect(sim.transaction(d.referenceId)?.partner).toBe('default');
    // Each sees its own, and another's is not found with its credentials (as the provider).
    expect((await acme.disbursement.getDeposit(a.referenceId)).status).toBe('SUCCESSFUL');
    await expect(zeta.disbursement.getDeposit(a.referenceId)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("refuses one partner's token or API user with another's key: 401 {error}", async () => {
    const acmeToken = await token(ACME, 'acme-key');
    expect(acmeToken.status).toBe(200);
    const bearer = String(acmeToken.body.access_token);
    expect((await get('/disbursement/v1_0/account/balance', bearer, 'acme-key')).status).toBe(200);
    // The rotated key of the same partner is the same partner.
    expect((await get('/disbursement/v1_0/account/balance', bearer, 'acme-key-next')).status).toBe(
      200,
    );
    const crossed = await get('/disbursement/v1_0/account/balance', bearer, 'zeta-key');
    expect(crossed.status).toBe(401);
    expect(await crossed.json()).toEqual({ error: 'invalid_token' });
    const crossedDefault = await get(
      '/disbursement/v1_0/account/balance',
      bearer,
      sim.credentials.subscriptionKey,
    );
    expect(crossedDefault.status).toBe(401);
    // Basic: acme's API user with zeta's key is no user of zeta's.
    expect(await token(ACME, 'zeta-key')).toEqual({ status: 401, body: { error: 'login_failed' } });
    expect((await token(ZETA, 'zeta-key')).status).toBe(200);
  });

  it("counts each partner's caps on its own keys", async () => {
    const capped = createSimulator({
      clock,
      partners: [
        { name: 'acme', subscriptionKey: 'acme-key', apiUsers: [ACME] },
        {
          name: 'zeta',
          subscriptionKey: 'zeta-key',
          apiUsers: [ZETA],
          limits: { lookupsPerSecond: 2 },
        },
      ],
    });
    const statuses = async (partner: string, count: number) => {
      const momo = capped.client({
        ...capped.partner(partner),
        fetch: capped.fetch,
        maxRetries: 0,
      });
      const out: (number | string)[] = [];
      for (let i = 0; i < count; i++) {
        out.push(
          await momo.disbursement.getBalance().then(
            () => 200,
            (e) => e.status ?? String(e),
          ),
        );
      }
      return out;
    };
    // Two pass; the 3rd in the same (fixed) second is 429 for zeta, and acme is not capped.
    expect(await statuses('zeta', 3)).toEqual([200, 200, 429]);
    expect(await statuses('acme', 5)).toEqual([200, 200, 200, 200, 200]);
  });

  it("shows each transaction's partner on the payer's page", async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/_simulator/events`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    let state: { items: { kind: string; partner?: string }[] } | undefined;
    while (state === undefined) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      text += decoder.decode(value, { stream: true });
      const data = /event: state\ndata: (.*)\n\n/.exec(text)?.[1];
      if (data !== undefined) state = JSON.parse(data);
    }
    controller.abort();
    const partners = state.items.map((item) => item.partner).sort();
    expect(partners).toEqual(['acme', 'default', 'zeta']);
    const script = await (await fetch(`${server.url}/_simulator/page.js`)).text();
    expect(script).toContain("'partner: ' + item.partner");
  });

  it('refuses partners that share a key or an API user', () => {
    expect(() =>
      createSimulator({
        partners: [{ name: 'x', subscriptionKey: 'sim-subscription-key', apiUsers: [ACME] }],
      }),
    ).toThrow(/subscription key/);
    expect(() =>
      createSimulator({
        partners: [
          { name: 'x', subscriptionKey: 'k1', apiUsers: [ACME] },
          { name: 'y', subscriptionKey: 'k2', apiUsers: [ACME] },
        ],
      }),
    ).toThrow(/two partners/);
  });
});
