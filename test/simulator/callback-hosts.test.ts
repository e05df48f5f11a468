import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { basic, deposit, rawClient, type Sim, uuidv4 } from './helpers';

// Callback hosts over HTTP (sim.listen()): which X-Callback-Url hosts a creating call may
// name (enforceCallbackHost, as the provider's sandbox), and which the simulator calls.

const realFetch = globalThis.fetch;
const servers: ListeningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function served(sim: Sim) {
  const server = await sim.listen();
  servers.push(server);
  return rawClient(sim, realFetch, server.url);
}

/** Provisions an API user for `host` through the sandbox API; returns its Basic credentials. */
async function provision(http: ReturnType<typeof rawClient>, host: string): Promise<string> {
  const id = uuidv4();
  const created = await http.send('POST', '/v1_0/apiuser', {
    headers: { 'X-Reference-Id': id, 'Content-Type': 'application/json' },
    body: { providerCallbackHost: host },
  });
  expect(created.status).toBe(201);
  const { apiKey } = (await (await http.send('POST', `/v1_0/apiuser/${id}/apikey`)).json()) as {
    apiKey: string;
  };
  return basic(id, apiKey);
}

/** Waits until `count` callbacks are recorded and each has a status or an error. */
async function ended(sim: Sim, count: number): Promise<void> {
  await vi.waitFor(() => {
    expect(sim.callbacks).toHaveLength(count);
    expect(sim.callbacks.filter((c) => c.status === undefined && c.error === undefined)).toEqual(
      [],
    );
  }, 5_000);
}

/** A payee whose deposit stays PENDING: no callback is ever due. */
const undecided = () => deposit('46733123453');

describe('enforceCallbackHost: the sandbox refuses other callback hosts', () => {
  it('400 INVALID_CALLBACK_URL_HOST unless the host is the caller’s providerCallbackHost', async () => {
    const sim = createSimulator({ enforceCallbackHost: true, providerCallbackHost: '127.0.0.1' });
    const http = await served(sim);
    const partner = await provision(http, 'partner.example');
    const create = (callbackUrl: string, authorization?: string) =>
      http.create('/disbursement/v1_0/deposit', undecided(), {
        callbackUrl,
        ...(authorization ? { authorization } : {}),
      });
    const partnerToken = `Bearer ${await tokenOf(http, partner, 'disbursement')}`;

    const other = await create('http://other.example/momo/cb', partnerToken);
    expect(other.response.status).toBe(400);
    expect(await other.response.json()).toEqual({
      code: 'INVALID_CALLBACK_URL_HOST',
      message:
        "Callback URL host other.example is not the API user's providerCallbackHost partner.example.",
    });
    // The configured user's host is not the provisioned user's.
    expect((await create('http://127.0.0.1:9/cb', partnerToken)).response.status).toBe(400);
    expect(sim.transactions).toHaveLength(0);
    // Its own host, on any port, in any case.
    expect((await create('http://Partner.Example:8080/cb', partnerToken)).response.status).toBe(
      202,
    );
    // The configured API user has providerCallbackHost 127.0.0.1: not localhost.
    expect((await create('http://localhost:9/cb')).response.status).toBe(400);
    expect((await create('http://127.0.0.1:9/cb')).response.status).toBe(202);
    expect(sim.transactions).toHaveLength(2);
  });

  it('without a providerCallbackHost every host is refused, naming the option', async () => {
    const http = await served(createSimulator({ enforceCallbackHost: true }));
    const { response } = await http.create('/disbursement/v1_0/deposit', undecided(), {
      callbackUrl: 'http://127.0.0.1:9/cb',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(
      /no providerCallbackHost.*providerCallbackHost/,
    );
  });

  it('is opt-in: by default any http(s) callback URL is accepted', async () => {
    const http = await served(createSimulator());
    const { response } = await http.create('/disbursement/v1_0/deposit', undecided(), {
      callbackUrl: 'https://other.example/momo/cb',
    });
    expect(response.status).toBe(202);
  });
});

describe('callbacks go only to loopback, the caller’s providerCallbackHost and callbackHosts', () => {
  /**
   * The global fetch the simulator sends callbacks with, looked up at send time: loopback
   * goes through; the hosts in `answering` are answered 204 here; anything else is
   * recorded and refused, so that no packet leaves for a private or link-local address.
   */
  function guardNetwork(answering: readonly string[] = []) {
    const elsewhere: string[] = [];
    const answered: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return realFetch(input, init);
      if (answering.includes(url.hostname)) {
        answered.push(url.href);
        return new Response(null, { status: 204 });
      }
      elsewhere.push(url.href);
      throw new TypeError('the test sends nothing beyond loopback');
    });
    return { elsewhere, answered };
  }

  it('a private or link-local callback host is not attempted, only recorded as refused', async () => {
    const sim = createSimulator({ settleMs: 0 });
    const http = await served(sim);
    const network = guardNetwork();
    for (const callbackUrl of [
      'http://10.0.0.7/momo/cb',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const { response } = await http.create('/disbursement/v1_0/deposit', deposit(), {
        callbackUrl,
      });
      expect(response.status).toBe(202);
    }
    await ended(sim, 2);
    expect(sim.callbacks[0]).toMatchObject({ url: 'http://10.0.0.7/momo/cb' });
    expect(sim.callbacks[0]?.error).toMatch(/^refused: 10\.0\.0\.7 is not a callback host/);
    expect(sim.callbacks[1]?.error).toMatch(/^refused: 169\.254\.169\.254 is not a callback host/);
    expect(sim.callbacks.map((c) => c.status)).toEqual([undefined, undefined]);
    expect(network.elsewhere).toEqual([]);
  });

  it('callbackHosts and a provisioned user’s providerCallbackHost widen it', async () => {
    const sim = createSimulator({ settleMs: 0, callbackHosts: ['partner.example'] });
    const http = await served(sim);
    const shop = await provision(http, 'shop.example');
    const network = guardNetwork(['partner.example', 'shop.example']);
    await http.create('/disbursement/v1_0/deposit', deposit(), {
      callbackUrl: 'https://partner.example/cb',
    });
    await http.create('/collection/v1_0/requesttopay', requestToPay(), {
      callbackUrl: 'http://shop.example/cb',
      authorization: `Bearer ${await tokenOf(http, shop)}`,
    });
    // The configured API user has no providerCallbackHost: shop.example is not its host.
    await http.create('/disbursement/v1_0/deposit', deposit(), {
      callbackUrl: 'http://shop.example/x',
    });
    await ended(sim, 3);
    expect(sim.callbacks.map((c) => c.status ?? c.error?.slice(0, 8))).toEqual([
      204,
      204,
      'refused:',
    ]);
    expect(network.answered).toEqual(['https://partner.example/cb', 'http://shop.example/cb']);
    expect(network.elsewhere).toEqual([]);
  });

  it('a redirect is the answer recorded, never followed', async () => {
    const sim = createSimulator({ settleMs: 0 });
    const http = await served(sim);
    const landed: string[] = [];
    const landing = createServer((req, res) => {
      landed.push(`${req.method} ${req.url}`);
      res.writeHead(200).end();
    });
    const redirecting = createServer((req, res) => {
      req.resume();
      const { port } = landing.address() as AddressInfo;
      res.writeHead(302, { location: `http://127.0.0.1:${port}/landing` }).end();
    });
    for (const server of [landing, redirecting]) {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
    }
    try {
      const { port } = redirecting.address() as AddressInfo;
      await http.create('/disbursement/v1_0/deposit', deposit(), {
        callbackUrl: `http://127.0.0.1:${port}/momo/cb`,
      });
      // Had the redirect been followed, the landing page would have answered (200) first.
      await vi.waitFor(() => expect(sim.callbacks[0]?.status).toBe(302), 5_000);
      expect(landed).toEqual([]);
    } finally {
      landing.close();
      redirecting.close();
    }
  });
});

const requestToPay = () => ({
  amount: '9',
  currency: 'EUR',
  externalId: 'order-9',
  payer: { partyIdType: 'MSISDN', partyId: '46700000001' },
});

async function tokenOf(
  http: ReturnType<typeof rawClient>,
  credentials: string,
  product: 'collection' | 'disbursement' = 'collection',
): Promise<string> {
  const response = await http.send('POST', `/${product}/token/`, {
    headers: { Authorization: credentials },
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
