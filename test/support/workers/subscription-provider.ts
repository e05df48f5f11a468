/**
 * The provider of the subscriptions-at-scale test (test/subscriptions/processes.test.ts), in
 * a process of its own: the SDK's simulator served over HTTP (`sim.listen`), its clock
 * stopped at the start time and moved only by the driver (`advance`), and every outcome
 * callback delivered twice (its `callbackFetch` sends each one two times), as a provider
 * that retries its callbacks does. Driven over IPC (test/support/subscription-processes.ts).
 * What it answers about charges comes from its own ledger, not from the partner's store.
 */
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { serveParent } from '../worker';

/** A request to pay the provider holds: its caller tag is `<subscription key>/<period>`. */
export interface HeldCharge {
  referenceId: string;
  tag: string | undefined;
  status: string;
}

/** The provider's counts so far (cheap: kept as callbacks go out). */
export interface ProviderCounts {
  /** The simulator's time (epoch ms). */
  now: number;
  /** Requests to pay that became SUCCESSFUL (counted once each, at its first callback). */
  successful: number;
  /** Callback deliveries attempted (each callback twice). */
  deliveries: number;
  /** Of those, answered 2xx by a runner's receiver. */
  delivered: number;
  /** Requests it answered (any): the runners are at work while it grows. */
  requests: number;
}

let sim: Simulator | undefined;
let server: ListeningServer | undefined;
const counts = { successful: 0, deliveries: 0, delivered: 0 };

const isCharge = (body: string) => {
  try {
    const parsed = JSON.parse(body) as { amount?: unknown; status?: unknown };
    return parsed.amount !== undefined && parsed.status === 'SUCCESSFUL';
  } catch {
    return false;
  }
};

/** Sends a callback twice, one after the other (a runner killed meanwhile gets neither). */
const twice: typeof fetch = async (input, init) => {
  const body = typeof init?.body === 'string' ? init.body : '';
  if (isCharge(body)) counts.successful += 1;
  let first: Response | undefined;
  for (let n = 0; n < 2; n++) {
    counts.deliveries += 1;
    try {
      const response = await fetch(input, init);
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) counts.delivered += 1;
      first ??= response;
    } catch (error) {
      if (n === 1 && first === undefined) throw error;
    }
  }
  return first as Response;
};

serveParent({
  async start(input: { startAt: number }) {
    sim = createSimulator({
      settleMs: 0,
      clock: { now: () => input.startAt }, // stopped: only `advance` moves it
      tokenTtlSeconds: 20 * 365 * 86_400, // tokens outlive the simulated months
      callbackFetch: twice,
    });
    server = await sim.listen({ port: 0 });
    const { baseUrl: _, ...credentials } = sim.credentials;
    return { url: server.url, credentials };
  },

  /** Moves the provider's clock forward; resolves with its new time. */
  async advance(input: { ms: number }): Promise<number> {
    sim?.clock.advance(input.ms);
    return sim?.clock.now() ?? 0;
  },

  async counts(): Promise<ProviderCounts> {
    return { now: sim?.clock.now() ?? 0, ...counts, requests: sim?.requests.length ?? 0 };
  },

  /** Every request to pay the provider holds, with its status. */
  async charges(): Promise<HeldCharge[]> {
    return (sim?.transactions ?? [])
      .filter((t) => t.operation === 'collection.requestToPay')
      .map((t) => ({ referenceId: t.referenceId.toLowerCase(), tag: t.tag, status: t.status }));
  },

  /** How many creating calls (POSTs) it answered per path, and how many lookups (GETs). */
  async requests(): Promise<{ creates: Record<string, number>; lookups: number }> {
    const creates: Record<string, number> = {};
    let lookups = 0;
    for (const r of sim?.requests ?? []) {
      if (r.limited) continue;
      if (r.method === 'GET') lookups++;
      else {
        const route = `${r.method} ${r.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, '{id}')}`;
        creates[route] = (creates[route] ?? 0) + 1;
      }
    }
    return { creates, lookups };
  },

  async close() {
    await server?.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});
