/**
 * The provider of the one-call-fault tests in a process of its own: the SDK's simulator
 * served over HTTP behind the fault proxy (test/support/fault-proxy.ts) that injects a
 * scenario's faults (test/support/fault-scenarios.ts). The client stays in the test's
 * process, so under load the provider's answers are not late because the test's event
 * loop was busy with the client. Driven over IPC (`FaultProviderProcess` in
 * test/support/fault-provider-process.ts).
 */
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { startFaultProxy } from '../fault-proxy';
import { decideFor, type FaultScenario } from '../fault-scenarios';
import { serveParent } from '../worker';
import type { HeldTransaction } from './provider';

let sim: Simulator | undefined;
let server: ListeningServer | undefined;
let proxy: Awaited<ReturnType<typeof startFaultProxy>> | undefined;

const externalId = (body: unknown) => (body as { externalId?: string } | undefined)?.externalId;

serveParent({
  async start(input: { scenario: FaultScenario; calls: number; settleMs: number }) {
    sim = createSimulator({ settleMs: input.settleMs });
    server = await sim.listen({ port: 0 });
    proxy = await startFaultProxy(server.url, decideFor(input.scenario, input.calls));
    const { baseUrl: _, ...credentials } = sim.credentials;
    return { url: proxy.baseUrl, credentials };
  },

  /** The transactions the simulator holds (behind the proxy), keyed by their externalId. */
  async transactions(): Promise<HeldTransaction[]> {
    return (sim?.transactions ?? []).map((t) => ({
      key: externalId(t.body),
      referenceId: t.referenceId.toLowerCase(),
      status: t.status,
    }));
  },

  async close() {
    await proxy?.close();
    await server?.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});
