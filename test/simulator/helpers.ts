import { createSimulator, type SimulatorOptions } from 'momo-partner-sdk/testing';
import { v1 as uuidv1, v4 as uuidv4, v7 as uuidv7 } from 'uuid';

export type Sim = ReturnType<typeof createSimulator>;

export { uuidv1, uuidv4, uuidv7 };

export const deposit = (partyId = '46700000001', extra: Record<string, unknown> = {}) => ({
  amount: '100',
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN', partyId },
  payerMessage: 'Thanks',
  payeeNote: 'Cash in',
  ...extra,
});

export type ProductName = 'disbursement' | 'collection' | 'remittance';

/** Whose token a path needs (DESIGN 3: the product the path begins with). */
export function productOf(path: string): ProductName {
  if (path.startsWith('/collection')) return 'collection';
  if (path.startsWith('/remittance')) return 'remittance';
  return 'disbursement';
}

export function basic(id: string, key: string): string {
  return `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;
}

/**
 * A small raw-HTTP client for a simulator, over `sim.fetch` by default or any fetch
 * and base URL (a `listen()` server with the global fetch).
 */
export function rawClient(sim: Sim, fetchImpl: typeof fetch = sim.fetch, base?: string) {
  const origin = base ?? sim.credentials.baseUrl;
  const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;
  const common = {
    'Ocp-Apim-Subscription-Key': subscriptionKey,
    'X-Target-Environment': targetEnvironment,
  };
  const client = {
    send: (
      method: string,
      path: string,
      init: { headers?: Record<string, string>; body?: unknown } = {},
    ) =>
      fetchImpl(`${origin}${path}`, {
        method,
        headers: { ...common, ...init.headers },
        ...(init.body === undefined
          ? {}
          : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
      }),
    async token(product: ProductName = 'disbursement'): Promise<string> {
      const response = await client.send('POST', `/${product}/token/`, {
        headers: { Authorization: basic(apiUser.id, apiUser.key) },
      });
      const body = (await response.json()) as { access_token: string };
      return body.access_token;
    },
    async create(
      path: string,
      body: unknown,
      options: {
        referenceId?: string;
        callbackUrl?: string;
        token?: string;
        method?: string;
        authorization?: string;
      } = {},
    ) {
      const referenceId = options.referenceId ?? uuidv4();
      const authorization =
        options.authorization ?? `Bearer ${options.token ?? (await client.token(productOf(path)))}`;
      const headers: Record<string, string> = {
        Authorization: authorization,
        'X-Reference-Id': referenceId,
        'Content-Type': 'application/json',
        ...(options.callbackUrl ? { 'X-Callback-Url': options.callbackUrl } : {}),
      };
      const response = await client.send(options.method ?? 'POST', path, { headers, body });
      return { referenceId, response };
    },
    async get(path: string, token?: string) {
      return client.send('GET', path, {
        headers: { Authorization: `Bearer ${token ?? (await client.token(productOf(path)))}` },
      });
    },
    /** The API user's Basic credentials. */
    basic: () => basic(apiUser.id, apiUser.key),
  };
  return client;
}

/** Records callbacks sent through `callbackFetch`. */
export function capture(status = 200) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const callbackFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      body: JSON.parse(String(init?.body)),
    });
    return new Response(null, { status });
  }) as typeof fetch;
  return { calls, callbackFetch };
}

export const party = (partyId: string) => ({ partyIdType: 'MSISDN', partyId });

/** A request-to-pay / request-to-withdraw body. */
export const payment = (partyId = '46700000001', extra: Record<string, unknown> = {}) => ({
  amount: '100',
  currency: 'EUR',
  externalId: 'order-1',
  payer: party(partyId),
  payerMessage: 'Pay',
  payeeNote: 'Paid',
  ...extra,
});

export function simulator(options: SimulatorOptions = {}): Sim {
  return createSimulator(options);
}
