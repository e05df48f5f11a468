import { type Journal, MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';

/** Payees whose transfers stay PENDING until `sim.settle()`. */
export const PENDING_PAYEE = '46733123453';
export const FOREVER_PENDING_PAYEE = '46733123454';
export const PAYEE = '46733123999';

export interface Platform {
  sim: Simulator;
  http: ListeningServer;
  client(overrides?: Partial<MomoClientOptions> & { journal?: Journal }): MomoClient;
}

/** A simulator served on loopback, and clients of it going through the real transport. */
export async function platform(): Promise<Platform> {
  const sim = createSimulator({ settleMs: 10 });
  const http = await sim.listen({ port: 0 });
  const { baseUrl: _, ...credentials } = sim.credentials;
  const polling = { initialDelayMs: 20, maxDelayMs: 100, timeoutMs: 10_000 };
  return {
    sim,
    http,
    client: (overrides = {}) =>
      new MomoClient({ ...credentials, baseUrl: http.url, polling, ...overrides }),
  };
}

/** A transfer body for `payee`. */
export const transfer = (amount: string, payee = PAYEE) => ({
  amount,
  currency: 'EUR',
  externalId: 'payroll-1',
  payee: { partyIdType: 'MSISDN' as const, partyId: payee },
});

/** The status lookups (GET by reference id) the simulator received. */
export const lookups = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'GET' && /\/[0-9a-f-]{36}$/.test(r.path));
