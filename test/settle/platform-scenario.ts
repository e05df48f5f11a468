import { createServer } from 'node:http';
import { type Journal, MomoClient, toNodeListener } from 'momo-partner-sdk';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { expect } from 'vitest';

const PENDING_PAYEE = '46733123453'; // stays PENDING until sim.settle()

interface Platform {
  sim: Simulator;
  http: ListeningServer;
  /** A client of this platform (a new instance, or a restarted process, each call). */
  client(journal: Journal): MomoClient;
}

async function platform(): Promise<Platform> {
  const sim = createSimulator({ settleMs: 10 });
  const http = await sim.listen({ port: 0 });
  const { baseUrl: _, ...credentials } = sim.credentials;
  const polling = { initialDelayMs: 20, maxDelayMs: 100, timeoutMs: 10_000 };
  return {
    sim,
    http,
    client: (journal) => new MomoClient({ ...credentials, baseUrl: http.url, journal, polling }),
  };
}

/**
 * Two loopback simulators stand for two platforms of the provider (say its legacy
 * production and its new one). Operations sent to A and left in the journal are listed by
 * a client of B with A's address, never looked up or sent on B, and settled by a client
 * of A. `journal()` gives the journal every instance shares (the same one each call).
 */
export async function platformScenario(journal: () => Journal): Promise<void> {
  const a = await platform();
  const b = await platform();
  try {
    const onA = a.client(journal());
    const sent = await Promise.all(
      Array.from({ length: 3 }, () =>
        onA.disbursement.deposit({
          amount: '10',
          currency: 'EUR',
          externalId: 'order-1',
          payee: { partyIdType: 'MSISDN', partyId: PENDING_PAYEE },
        }),
      ),
    );
    const ids = sent.map((accepted) => accepted.referenceId);

    // The partner switched its base URL to B: a client of B sees them, and leaves them be.
    const onB = b.client(journal());
    const listed = await onB.journal.pending();
    expect(listed.map((entry) => entry.referenceId).sort()).toEqual([...ids].sort());
    for (const entry of listed) {
      expect(entry).toMatchObject({ baseUrl: a.http.url, targetEnvironment: 'sandbox' });
    }
    const onBOutcomes = await onB.journal.resume();
    expect(onBOutcomes.map((o) => o.status)).toEqual([
      'OTHER_PLATFORM',
      'OTHER_PLATFORM',
      'OTHER_PLATFORM',
    ]);
    // A callback for one of them reaching B's receiver is not confirmed on B either.
    const receiver = toNodeListener(onB.callbacks.handler());
    const server = createServer((req, res) => void receiver(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const callback = await fetch(`http://127.0.0.1:${port}/momo/callbacks/${ids[0]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'SUCCESSFUL', amount: '10', currency: 'EUR' }),
    });
    await new Promise((resolve) => server.close(resolve));
    expect(callback.status).toBe(404);
    const onBServer = b.sim.requests.filter((r) => ids.some((id) => r.path.includes(id)));
    expect(onBServer).toEqual([]); // never looked up on B
    expect(b.sim.transactions).toEqual([]); // never sent again on B
    expect((await onB.journal.pending()).length).toBe(3); // still pending, for A to settle

    // A client of A (a restarted process) settles them there.
    for (const id of ids) a.sim.settle(id, 'SUCCESSFUL');
    const outcomes = await a.client(journal()).journal.resume();
    expect(outcomes.map((o) => o.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL', 'SUCCESSFUL']);
    expect(a.sim.transactions).toHaveLength(3);
    expect(await onB.journal.pending()).toEqual([]);
    expect(b.sim.requests.filter((r) => ids.some((id) => r.path.includes(id)))).toEqual([]);
  } finally {
    await a.http.close();
    await b.http.close();
  }
}
