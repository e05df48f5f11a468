/**
 * The provider in a process of its own with several partners (`createSimulator({ partners })`):
 * `tenants` keys, one API user each. Driven over IPC (`Instance`): start it, read what
 * reached it (each counted request with its subscription key), close it.
 */
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { serveParent } from '../../support/worker';

/** A request the provider counts against a cap, as it arrived. */
export interface Arrival {
  key: string;
  kind: 'lookup' | 'create';
  at: number;
  externalId: string | undefined;
  limited: boolean;
}

export interface TenantCredentials {
  subscriptionKey: string;
  apiUser: { id: string; key: string };
}

let sim: Simulator | undefined;
let server: ListeningServer | undefined;

const apiUserId = (i: number) =>
  `${(0x10000000 + i).toString(16)}-0000-4000-8000-${String(i).padStart(12, '0')}`;

serveParent({
  async start(input: { tenants: number; settleMs: number }) {
    const tenants: TenantCredentials[] = Array.from({ length: input.tenants }, (_, i) => ({
      subscriptionKey: `tenant-${i}-subscription-key`,
      apiUser: { id: apiUserId(i), key: `tenant-${i}-api-key` },
    }));
    sim = createSimulator({
      settleMs: input.settleMs,
      partners: tenants.map((t, i) => ({
        name: `tenant-${i}`,
        subscriptionKey: t.subscriptionKey,
        apiUsers: [t.apiUser],
      })),
    });
    server = await sim.listen({ port: 0 });
    return { url: server.url, targetEnvironment: sim.credentials.targetEnvironment, tenants };
  },

  /** Every lookup (GET) and creating call that reached it, in arrival order. */
  async arrivals(): Promise<Arrival[]> {
    return (sim?.requests ?? []).flatMap((r) => {
      const kind = r.method === 'GET' ? 'lookup' : r.headers['x-reference-id'] ? 'create' : null;
      if (kind === null) return [];
      const body = r.body as { externalId?: string } | undefined;
      return [
        {
          key: r.headers['ocp-apim-subscription-key'] ?? '',
          kind,
          at: r.at,
          externalId: body?.externalId,
          limited: r.limited !== undefined,
        },
      ];
    });
  },

  /** How many creating calls of this key reached it so far. */
  async createsOf(input: { key: string }) {
    return (sim?.requests ?? []).filter(
      (r) => r.headers['ocp-apim-subscription-key'] === input.key && r.headers['x-reference-id'],
    ).length;
  },

  async close() {
    await server?.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});
