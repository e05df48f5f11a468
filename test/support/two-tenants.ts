import type { MomoClient } from 'momo-partner-sdk';
import { Tenants } from 'momo-partner-sdk/tenants';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';

/**
 * Two merchants of one aggregator (issue 40): the simulator keeps them apart as two
 * partners (a lookup of the other's reference id is 404, a token sent with the other's key
 * is refused), each tenant's client made by `Tenants` over the real transport on loopback.
 */
export interface TwoTenants {
  sim: Simulator;
  server: ListeningServer;
  tenants: Tenants;
  acme: MomoClient;
  zeta: MomoClient;
  /** The X-Reference-Ids of the creating calls sent with this partner's subscription key. */
  createdWith(partner: 'acme' | 'zeta'): string[];
  close(): Promise<void>;
}

export const PARTNERS = [
  {
    name: 'acme',
    subscriptionKey: 'acme-key',
    apiUsers: [{ id: '5f0b6a52-8a4f-4bb0-9d5e-3c1f2a7d9e01', key: 'acme-api-key' }],
  },
  {
    name: 'zeta',
    subscriptionKey: 'zeta-key',
    apiUsers: [{ id: '9c2e4d71-3b5a-4f8e-a6d0-7e1b2c3f4a05', key: 'zeta-api-key' }],
  },
];

export async function twoTenants(settleMs = 0): Promise<TwoTenants> {
  const sim = createSimulator({ settleMs, partners: PARTNERS });
  const server = await sim.listen();
  const tenants = new Tenants({
    resolve: (id) =>
      id === 'acme' || id === 'zeta' ? { ...sim.partner(id), baseUrl: server.url } : undefined,
    // simulatorTags: each request names its caller's row (a batch's item, a charge's period).
    client: {
      simulatorTags: true,
      polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 10_000 },
    },
  });
  const [acme, zeta] = await Promise.all([tenants.client('acme'), tenants.client('zeta')]);
  const keyOf = { acme: 'acme-key', zeta: 'zeta-key' };
  return {
    sim,
    server,
    tenants,
    acme,
    zeta,
    createdWith: (partner) =>
      sim.requests
        .filter(
          (r) =>
            r.method === 'POST' &&
            r.headers['ocp-apim-subscription-key'] === keyOf[partner] &&
            typeof r.headers['x-reference-id'] === 'string' &&
            !r.path.includes('/token'),
        )
        .map((r) => r.headers['x-reference-id'] as string),
    close: async () => {
      tenants.close();
      await server.close();
    },
  };
}
