import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isApiError, isAuthenticationError, isMomoError, MomoClient } from 'momo-partner-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from '../support/fake-service';
import { renderings } from '../support/renderings';

// Real HTTP on loopback, no msw: a proxy in front of the service echoes every request
// header back. Extends errors-and-secrets.test.ts to headers and to every error kind.

const basic = btoa(`${SECRETS.apiUserId}:${SECRETS.apiKey}`);
const transferBody = {
  amount: '5',
  currency: 'EUR',
  payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
} as const;

describe('secrets echoed back by a proxy, over real HTTP on loopback', () => {
  const echo = useEchoServer();
  const secrets = () => [SECRETS.subscriptionKey, SECRETS.apiKey, basic, echo.token];

  function client(lines: string[]) {
    const record = (message: string, fields?: unknown) =>
      void lines.push(message + JSON.stringify(fields));
    return new MomoClient({
      baseUrl: echo.url(),
      targetEnvironment: 'sandbox',
      subscriptionKey: SECRETS.subscriptionKey,
      apiUser: { id: SECRETS.apiUserId, key: SECRETS.apiKey },
      maxRetries: 0,
      timeoutMs: 300,
      logger: { debug: record, info: record, warn: record, error: record },
    });
  }

  function expectSafe(error: unknown, lines: string[]) {
    for (const secret of secrets()) {
      expect(renderings(error)).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret);
    }
  }

  it('ApiError keeps only diagnostic headers, scrubbed, and no echoed credential', async () => {
    const lines: string[] = [];
    const error = await client(lines)
      .disbursement.deposit(transferBody)
      .catch((e) => e);
    expect(isApiError(error) && error.status).toBe(400);
    expect(echo.seen()).toContain(echo.token); // the bearer token really went out and came back
    expect(Object.keys(error.headers).sort()).toEqual([
      'content-length',
      'content-type',
      'date',
      'www-authenticate',
      'x-request-id',
    ]);
    expect(error.headers['x-request-id']).toBe('[redacted]');
    expect(error.headers['www-authenticate']).toContain('Bearer [redacted]');
    expectSafe(error, lines);
  });

  it('a 401 on the token request names the refused credentials of the product, not their values', async () => {
    echo.refuseTokens(true);
    const lines: string[] = [];
    const error = await client(lines)
      .collection.getBalance()
      .catch((e) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error.operation).toBe('collection.getBalance');
    expect(error.cause.operation).toBe('collection.getAccessToken');
    expect(error.message).toContain(
      'collection: the service refused the API user id/API key (Basic) or the subscription key of collection',
    );
    // Which options to check, and the environment (docs/assumptions.md Y4).
    expect(error.message).toContain(
      'Check collection.apiUser (or apiUser) and collection.subscriptionKey (or subscriptionKey), and that baseUrl is the environment they were issued for',
    );
    expectSafe(error, lines);
  });

  it('ConnectionError, TimeoutError and UnexpectedResponseError carry no secret either', async () => {
    const lines: string[] = [];
    const momo = client(lines);
    const dropped = await momo.disbursement.getDeposit(UUID).catch((e) => e);
    const stalled = await momo.disbursement.getTransfer(UUID).catch((e) => e);
    const garbled = await momo.disbursement.getBalance().catch((e) => e);
    expect([dropped.name, stalled.name, garbled.name]).toEqual([
      'ConnectionError',
      'TimeoutError',
      'UnexpectedResponseError',
    ]);
    expect(JSON.stringify(garbled.body)).toContain('[redacted]'); // the echo arrived, scrubbed
    for (const error of [dropped, stalled, garbled]) {
      expect(isMomoError(error)).toBe(true);
      expectSafe(error, lines);
      expectSafe(error.cause, lines);
    }
  });
});

const UUID = '0b7c4b36-5f4d-4a53-8f6e-6f1f5b2ad001';

/**
 * A loopback server in front of which a careless proxy echoes every request header into
 * the response headers (`x-echo-*`, and into headers an error keeps) and the body.
 */
function useEchoServer() {
  const token = `tok-${crypto.randomUUID()}`;
  const received: string[] = [];
  let refuse = false;
  let url = '';
  const server = createServer((req, res) => {
    const headers = Object.entries(req.headers).map(([name, value]) => [name, String(value)]);
    received.push(...headers.map(([, value]) => value ?? ''));
    const path = req.url ?? '';
    if (path === `/disbursement/v1_0/deposit/${UUID}`) return req.socket.destroy();
    if (path === `/disbursement/v1_0/transfer/${UUID}`) return; // never answers
    const isToken = path.endsWith('/token/');
    if (isToken && !refuse) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ access_token: token, expires_in: 3600 }));
    }
    for (const [name, value] of headers) res.setHeader(`x-echo-${name}`, value ?? '');
    res.setHeader('x-request-id', req.headers['ocp-apim-subscription-key'] ?? '');
    res.setHeader(
      'www-authenticate',
      `Bearer error="invalid", seen="${req.headers.authorization}"`,
    );
    res.setHeader('content-type', 'application/json');
    const garbled = path.endsWith('/account/balance');
    res.statusCode = garbled ? 200 : isToken ? 401 : 400;
    const echoed = Object.fromEntries(headers);
    res.end(
      JSON.stringify(garbled ? { echoed } : { code: 'ECHO', message: JSON.stringify(echoed) }),
    );
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    refuse = false;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    token,
    url: () => url,
    seen: () => received.join('\n'),
    refuseTokens: (value: boolean) => {
      refuse = value;
    },
  };
}
