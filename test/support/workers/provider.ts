/**
 * The provider in a process of its own: the SDK's simulator served over HTTP
 * (`sim.listen`), so that the partner's processes a test kills share nothing with it
 * and its event loop is not the test's. Driven over IPC (`Instance` in
 * test/redis/support/instances.ts, `ProviderProcess` in test/support/provider-process.ts):
 * start it, read what it saw (creating calls, transactions), settle one, close it.
 */
import {
  createSimulator,
  type Fault,
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

/** A creating call as it arrived (refused ones included): its place among all requests. */
export interface Arrival {
  index: number;
  key: string | undefined;
  at: number;
  /** Refused by the provider's cap (a 429 of its own). */
  limited: boolean;
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

  /**
   * Arms a one-shot fault; resolves with how many requests had arrived: the fault answers
   * the first matching request after them (requests are recorded, then matched, in one turn).
   */
  async inject(input: { fault: Fault }): Promise<{ before: number }> {
    const before = sim?.requests.length ?? 0;
    sim?.inject(input.fault);
    return { before };
  },

  /** Every creating call (POST under `path`) that arrived, answered or refused, in order. */
  async arrivals(input: { path: string }): Promise<Arrival[]> {
    return (sim?.requests ?? [])
      .map((r, index) => ({ r, index }))
      .filter(({ r }) => r.method === 'POST' && r.path.startsWith(input.path))
      .map(({ r, index }) => ({ index, key: externalId(r.body), at: r.at, limited: !!r.limited }));
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
