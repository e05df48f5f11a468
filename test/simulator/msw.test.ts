import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deposit, rawClient, simulator } from './helpers';

// The receiver is another msw handler: its host is named as a callback host.
const sim = simulator({ settleMs: 0, callbackHosts: ['partner.example'] });
const received: { method: string; body: unknown }[] = [];
const server = setupServer(
  ...sim.handlers,
  http.all('https://partner.example/momo/*', async ({ request }) => {
    received.push({ method: request.method, body: await request.json() });
    return new HttpResponse(null, { status: 200 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  sim.reset();
  received.length = 0;
});
afterAll(() => server.close());

describe('simulator: msw handlers', () => {
  it('serves the base URL to the global fetch', async () => {
    const client = rawClient(sim, fetch);
    const { referenceId, response } = await client.create('/disbursement/v1_0/deposit', deposit(), {
      callbackUrl: 'https://partner.example/momo/cb',
    });
    expect(response.status).toBe(202);
    const lookup = await client.get(`/disbursement/v1_0/deposit/${referenceId}`);
    expect(await lookup.json()).toMatchObject({ status: 'SUCCESSFUL' });
    // The callback goes through the global fetch, which msw intercepts too.
    await vi.waitFor(() =>
      expect(received).toEqual([
        { method: 'POST', body: expect.objectContaining({ status: 'SUCCESSFUL' }) },
      ]),
    );
    expect(sim.callbacks[0]?.status).toBe(200);
  });

  it('turns a dropped connection into a network error', async () => {
    const client = rawClient(sim, fetch);
    const token = await client.token();
    sim.inject({ kind: 'drop-after-processing', match: 'POST /disbursement/v1_0/transfer' });
    await expect(
      client.create('/disbursement/v1_0/transfer', deposit(), { token }),
    ).rejects.toThrow(TypeError);
    expect(sim.transactions).toHaveLength(1);
  });

  it('serves the collection, consent and remittance endpoints too', async () => {
    const client = rawClient(sim, fetch);
    const heartbeat = await client.send('GET', '/collection/v1.2/mm/Heartbeat');
    expect(await heartbeat.json()).toEqual({ serviceStatus: 'available' });
    const withdraw = await client.create(
      '/collection/v2_0/requesttowithdraw',
      { amount: '5', currency: 'EUR', payer: { partyIdType: 'MSISDN', partyId: '46700000001' } },
      { method: 'PUT', callbackUrl: 'https://partner.example/momo/w' },
    );
    expect(withdraw.response.status).toBe(202);
    const authorize = await client.send(
      'POST',
      '/collectionwithnewcapabilities/v1_0/bc-authorize',
      {
        headers: {
          Authorization: `Bearer ${await client.token('collection')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'login_hint=ID%3A46700000001%2FMSISDN&scope=profile&access_type=online',
      },
    );
    expect(await authorize.json()).toMatchObject({ interval: 1, expires_in: 120 });
    await vi.waitFor(() => expect(received).toEqual([{ method: 'PUT', body: expect.anything() }]));
  });

  it('answers a status fault', async () => {
    sim.inject({ kind: 'status', status: 503 });
    const response = await rawClient(sim, fetch).send('GET', '/disbursement/v1_0/account/balance');
    expect(response.status).toBe(503);
  });
});
