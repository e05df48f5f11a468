/**
 * The provider in a process of its own: the SDK's simulator served over HTTP
 * (`sim.listen`), so that the partner's processes a test kills share nothing with it
 * and its event loop is not the test's. Driven over IPC (`Instance` in
 * test/redis/support/instances.ts, `ProviderProcess` in test/support/provider-process.ts):
 * start it, read what it saw (creating calls, transactions), settle one, close it.
 */
import {
  createSimulator,
  type ListeningServer,
  type Simulator,
  type SimulatorOptions,
} from 'momo-partner-sdk/testing';
import { serveParent } from '../worker';

/** A creating call the provider answered (429s left out): the row's key is its externalId. */
export interface CreatingCall {
  key: string | undefined;
  referenceId: string;
  at: number;
}

/** A transaction the provider holds. */
export interface HeldTransaction {
  key: string | undefined;
  referenceId: string;
  status: string;
}

let sim: Simulator | undefined;
let server: ListeningServer | undefined;

const externalId = (body: unknown) => (body as { externalId?: string } | undefined)?.externalId;

serveParent({
  async start(options: Pick<SimulatorOptions, 'settleMs' | 'limits'>) {
    sim = createSimulator(options);
    server = await sim.listen({ port: 0 });
    const { baseUrl: _, ...credentials } = sim.credentials;
    return { url: server.url, credentials };
  },

  /** The creating calls (POSTs under `path`) it answered, in arrival order. */
  async creates(input: { path: string }): Promise<CreatingCall[]> {
    return (sim?.requests ?? [])
      .filter((r) => r.method === 'POST' && r.path.startsWith(input.path) && !r.limited)
      .map((r) => ({
        key: externalId(r.body),
        referenceId: (r.headers['x-reference-id'] ?? '').toLowerCase(),
        at: r.at,
      }));
  },

  async transactions(): Promise<HeldTransaction[]> {
    return (sim?.transactions ?? []).map((t) => ({
      key: externalId(t.body),
      referenceId: t.referenceId.toLowerCase(),
      status: t.status,
    }));
  },

  async settle(input: { referenceId: string; status: 'SUCCESSFUL' | 'FAILED' }) {
    sim?.settle(input.referenceId, input.status);
    return {};
  },

  async close() {
    await server?.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});
