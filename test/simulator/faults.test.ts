import { afterEach, describe, expect, it } from 'vitest';
import { deposit, rawClient, type Sim, simulator, uuidv4 } from './helpers';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type Transport = (sim: Sim) => Promise<ReturnType<typeof rawClient>>;

const transports: [string, Transport][] = [
  ['sim.fetch', async (sim) => rawClient(sim)],
  [
    'sim.listen()',
    async (sim) => {
      const server = await sim.listen();
      servers.push(server);
      return rawClient(sim, fetch, server.url);
    },
  ],
];

describe.each(transports)('simulator faults through %s', (_, connect) => {
  it('drop-after-processing: the request is processed, then the connection is lost', async () => {
    const sim = simulator();
    const http = await connect(sim);
    const token = await http.token();
    sim.inject({ kind: 'drop-after-processing', match: 'POST /disbursement/v1_0/deposit' });
    const referenceId = uuidv4();
    await expect(
      http.create('/disbursement/v1_0/deposit', deposit(), { token, referenceId }),
    ).rejects.toThrow(TypeError);
    expect(sim.transactions.map((tx) => tx.referenceId)).toEqual([referenceId]);
    const retry = await http.create('/disbursement/v1_0/deposit', deposit(), {
      token,
      referenceId,
    });
    expect(retry.response.status).toBe(409);
    expect(sim.transactions).toHaveLength(1);
  });

  it('drop-before-processing: nothing is processed', async () => {
    const sim = simulator();
    const http = await connect(sim);
    const token = await http.token();
    sim.inject({ kind: 'drop-before-processing', match: '/disbursement/v1_0/deposit' });
    const referenceId = uuidv4();
    await expect(
      http.create('/disbursement/v1_0/deposit', deposit(), { token, referenceId }),
    ).rejects.toThrow(TypeError);
    expect(sim.transactions).toHaveLength(0);
    const retry = await http.create('/disbursement/v1_0/deposit', deposit(), {
      token,
      referenceId,
    });
    expect(retry.response.status).toBe(202);
    expect(sim.transactions).toHaveLength(1);
  });

  it('status: answers the given status, body and headers instead of processing', async () => {
    const sim = simulator();
    const http = await connect(sim);
    const token = await http.token();
    sim.inject({
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '2' },
      body: { code: 'TOO_MANY', message: 'slow down' },
      match: 'POST /disbursement/v1_0/transfer',
    });
    sim.inject({ kind: 'status', status: 503, times: 2 });
    const limited = await http.create('/disbursement/v1_0/transfer', deposit(), { token });
    expect(limited.response.status).toBe(429);
    expect(limited.response.headers.get('retry-after')).toBe('2');
    expect(await limited.response.json()).toEqual({ code: 'TOO_MANY', message: 'slow down' });
    const first = await http.get('/disbursement/v1_0/account/balance', token);
    const second = await http.create('/disbursement/v1_0/transfer', deposit(), { token });
    expect([first.status, second.response.status]).toEqual([503, 503]);
    expect(await first.text()).toBe('');
    const third = await http.create('/disbursement/v1_0/transfer', deposit(), { token });
    expect(third.response.status).toBe(202);
    expect(sim.transactions).toHaveLength(1);
    expect(sim.requests).toHaveLength(5);
  });

  it('leaves requests that the fault does not match alone', async () => {
    const sim = simulator();
    const http = await connect(sim);
    sim.inject({ kind: 'status', status: 500, match: 'GET /disbursement/v1_0/deposit' });
    const token = await http.token();
    const created = await http.create('/disbursement/v1_0/deposit', deposit(), { token });
    expect(created.response.status).toBe(202);
    const lookup = await http.get(`/disbursement/v1_0/deposit/${created.referenceId}`, token);
    expect(lookup.status).toBe(500);
    const again = await http.get(`/disbursement/v1_0/deposit/${created.referenceId}`, token);
    expect(again.status).toBe(200);
  });
});

describe('simulator: inject() validation', () => {
  it('rejects a nonsensical fault', () => {
    const sim = simulator();
    expect(() => sim.inject({ kind: 'status', status: 99 })).toThrow(TypeError);
    expect(() => sim.inject({ kind: 'drop-before-processing', times: 0 })).toThrow(TypeError);
  });
});

describe('simulator: listen()', () => {
  it('serves on 127.0.0.1 and stops on close()', async () => {
    const sim = simulator();
    const server = await sim.listen({ port: 0 });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const response = await fetch(`${server.url}/disbursement/v1_0/account/balance`, {
      headers: {
        'Ocp-Apim-Subscription-Key': 'sim-subscription-key',
        'X-Target-Environment': 'sandbox',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    await server.close();
    await expect(fetch(`${server.url}/disbursement/v1_0/account/balance`)).rejects.toThrow();
  });
});
