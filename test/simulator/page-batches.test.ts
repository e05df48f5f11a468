import { MomoClient } from 'momo-partner-sdk';
import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The payer's phone page shows batches: its state JSON (each `state` event of
// /_simulator/events) groups the transactions whose caller tag names a batch. The tag
// reaches the simulator only from a client set up for it (`simulatorTags: true`, which
// sim.client() sets), never because a server's answers say it is the simulator.
const sim = createSimulator({ settleMs: 20 });
let server: ListeningServer;

beforeAll(async () => {
  server = await sim.listen();
});
afterAll(() => server.close());

const payee = (partyId: string) => ({ partyIdType: 'MSISDN' as const, partyId });
const row = (key: string, amount: string, msisdn: string) => ({
  key,
  body: { amount, currency: 'EUR', externalId: key, payee: payee(msisdn) },
});

interface PageState {
  batches: {
    id: string;
    total: number;
    counts: Record<string, number>;
    rows: { key: string; referenceId: string; amount?: string; status: string; reason?: string }[];
  }[];
}

/** The first `state` event the page gets from /_simulator/events. */
async function pageState(): Promise<PageState> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/_simulator/events`, { signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the event stream ended');
    text += decoder.decode(value, { stream: true });
    const data = /event: state\ndata: (.*)\n\n/.exec(text)?.[1];
    if (data !== undefined) {
      controller.abort();
      return JSON.parse(data) as PageState;
    }
  }
}

describe('batches in the page state', () => {
  it("groups a batch's rows with their key, reference id, amount and status, and counts them", async () => {
    const momo = sim.client();
    const report = await new Batches(momo).run(
      [
        row('emp-1', '150', '46733123999'),
        row('emp-2', '80', '46733123455'), // FAILED: NOT_ENOUGH_FUNDS
        row('emp-3', '-1', '46733123999'), // REJECTED: never sent, never shown
        row('emp/4', '20', '46733123453'), // stays PENDING; a key may hold a slash
      ],
      {
        id: 'payroll-2026-11',
        operation: 'disbursement.transfer',
        store: memoryBatchStore(),
        waitTimeoutMs: 500,
      },
    );
    expect(report.items.map((i) => i.status)).toEqual([
      'SUCCESSFUL',
      'FAILED',
      'REJECTED',
      'UNRESOLVED',
    ]);
    const ids = report.items.map((i) => i.referenceId);
    await momo.disbursement.transfer(row('x', '5', '46733123999').body); // not a batch's
    await momo.disbursement.transfer(row('x', '6', '46733123999').body, { tag: 'order-9' });

    // The rows are sent concurrently, so they reach the simulator (and its page) in any
    // order: compare them by key.
    const state = await pageState();
    for (const batch of state.batches) batch.rows.sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(state.batches).toEqual([
      {
        id: 'payroll-2026-11',
        total: 3,
        counts: { PENDING: 1, SUCCESSFUL: 1, FAILED: 1 },
        rows: [
          expect.objectContaining({
            key: 'emp-1',
            referenceId: ids[0],
            amount: '150',
            status: 'SUCCESSFUL',
          }),
          expect.objectContaining({
            key: 'emp-2',
            referenceId: ids[1],
            amount: '80',
            status: 'FAILED',
            reason: 'NOT_ENOUGH_FUNDS',
          }),
          expect.objectContaining({
            key: 'emp/4',
            referenceId: ids[3],
            amount: '20',
            status: 'PENDING',
          }),
        ],
      },
    ]);
    expect(sim.transaction(ids[0] ?? '')?.tag).toBe('payroll-2026-11/emp-1');

    sim.settle(ids[3] ?? '', 'SUCCESSFUL');
    const after = await pageState();
    expect(after.batches[0]?.counts).toEqual({ PENDING: 0, SUCCESSFUL: 2, FAILED: 1 });
  });

  it('a client without simulatorTags sends no tag, though every answer says X-Momo-Simulator', async () => {
    // The upstream marks every answer as the simulator's (a misconfigured gateway could
    // too): a client not set up for the simulator must not hand it `<batch id>/<key>`.
    const { targetEnvironment, subscriptionKey, apiUser } = sim.credentials;
    const clients = [
      new MomoClient({
        baseUrl: server.url,
        targetEnvironment,
        subscriptionKey,
        apiUser: { id: apiUser.id, key: apiUser.key },
        polling: { initialDelayMs: 20, maxDelayMs: 200 },
      }),
      sim.client({ simulatorTags: false }),
    ];
    for (const [i, momo] of clients.entries()) {
      const before = sim.requests.length;
      const report = await new Batches(momo).run([row('secret-key', '10', '46733123999')], {
        id: `untagged-${i}`,
        operation: 'disbursement.transfer',
        store: memoryBatchStore(),
      });
      expect(report.summary.successful).toBe(1);
      const answered = sim.requests.slice(before);
      const sent = answered.filter((r) => r.method === 'POST' && !r.path.includes('token'));
      expect(sent.length).toBeGreaterThan(0);
      for (const request of answered) {
        expect(request.headers).not.toHaveProperty('x-momo-simulator-tag');
        expect(JSON.stringify(request)).not.toContain(`untagged-${i}`); // the batch id
      }
      expect(sim.transaction(report.items[0]?.referenceId ?? '')?.tag).toBeUndefined();
      expect((await pageState()).batches.map((b) => b.id)).not.toContain(`untagged-${i}`);
    }
  });

  it("shows a batch run by a partner's own client over HTTP (the Node transport) set up with simulatorTags", async () => {
    const { targetEnvironment, subscriptionKey, apiUser } = sim.credentials;
    const momo = new MomoClient({
      baseUrl: server.url,
      targetEnvironment,
      subscriptionKey,
      apiUser: { id: apiUser.id, key: apiUser.key },
      polling: { initialDelayMs: 20, maxDelayMs: 200 },
      simulatorTags: true,
    });
    const report = await new Batches(momo).run([row('n-1', '12', '46733123999')], {
      id: 'own-client',
      operation: 'disbursement.transfer',
      store: memoryBatchStore(),
    });
    const referenceId = report.items[0]?.referenceId ?? '';
    expect(report.summary.successful).toBe(1);
    expect(sim.transaction(referenceId)?.tag).toBe('own-client/n-1');
    const batch = (await pageState()).batches.find((b) => b.id === 'own-client');
    expect(batch?.rows).toEqual([expect.objectContaining({ key: 'n-1', referenceId })]);
  });
});
