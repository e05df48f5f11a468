import { MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const BASE = 'https://momo.test';
export const SECRETS = {
  subscriptionKey: 'sub-key-0123456789abcdef',
  apiUserId: 'a5d0b0b4-5b3c-4c3e-9f61-1f0c6f0a8e11',
  apiKey: 'api-key-fedcba9876543210',
};

export interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** An msw server whose handlers each test sets, recording every request it sees. */
export function useFakeService() {
  const server = setupServer();
  const seen: Seen[] = [];
  const bodies: Promise<void>[] = [];
  server.events.on('request:start', ({ request }) => {
    const entry: Seen = {
      method: request.method,
      path: new URL(request.url).pathname,
      headers: Object.fromEntries(request.headers),
      body: '',
    };
    seen.push(entry);
    bodies.push(
      request
        .clone()
        .text()
        .then((text) => {
          entry.body = text;
        }),
    );
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    seen.length = 0;
  });
  afterAll(() => server.close());
  /** Waits until every recorded request body has been read. */
  const settled = () => Promise.all(bodies).then(() => seen);
  return {
    server,
    seen,
    settled,
    count: (path: string) => seen.filter((s) => s.path === path).length,
  };
}

let tokenCounter = 0;

/** Token endpoint handler that issues numbered tokens. */
export function tokenHandler(product = 'disbursement', expiresIn = 3600) {
  return http.post(`${BASE}/${product}/token/`, () =>
    HttpResponse.json({
      access_token: `token-${++tokenCounter}-abcdefghijkl`,
      token_type: 'access_token',
      expires_in: expiresIn,
    }),
  );
}

export function makeClient(overrides: Partial<MomoClientOptions> = {}) {
  return new MomoClient({
    baseUrl: BASE,
    targetEnvironment: 'sandbox',
    subscriptionKey: SECRETS.subscriptionKey,
    apiUser: { id: SECRETS.apiUserId, key: SECRETS.apiKey },
    polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 5_000 },
    ...overrides,
  });
}

export const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
export const transferBody = {
  amount: '100',
  currency: 'EUR',
  externalId: 'order-1',
  payee,
  payerMessage: 'Thanks',
  payeeNote: 'Payout',
};
