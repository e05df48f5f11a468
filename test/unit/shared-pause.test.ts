import type { SharedRateBudget } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

/**
 * docs/assumptions.md JE4, the client's side, with a partner-made budget shared by two
 * clients (two processes' worth): the client whose creating call got a 429 records the
 * pause (`pause`), and the other, told of it after its next reservation
 * (`pausedUntil`), holds its creating calls until it ends. The budget here hands out
 * moments without enforcing the pause, so only the second client's own hold can keep its
 * call back. Arrival times are read at the simulator, against the 429's.
 */
const DEPOSIT = '/disbursement/v1_0/deposit';
const body = (externalId: string) => ({
  amount: '5',
  currency: 'EUR',
  externalId,
  payee: { partyIdType: 'MSISDN' as const, partyId: '46700000001' },
});

function pausingBudget() {
  const pauses: { kind: string; ms: number }[] = [];
  let until = 0;
  const budget: SharedRateBudget = {
    reserve: async () => Date.now(),
    async pause(kind, ms) {
      pauses.push({ kind, ms });
      until = Math.max(until, Date.now() + ms);
    },
    pausedUntil: (kind) => (kind === 'create' ? until : 0),
  };
  return { budget, pauses };
}

async function untilTrue(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a 429 shared through the rateBudget (JE4)', () => {
  it("one client's 429 is recorded once and holds the other client's creating calls", async () => {
    const sim = createSimulator({ settleMs: 10 });
    const { budget, pauses } = pausingBudget();
    const a = sim.client({ createRate: 50, rateBudget: budget });
    const b = sim.client({ createRate: 50, rateBudget: budget });
    sim.inject({
      kind: 'status',
      status: 429,
      match: `POST ${DEPOSIT}`,
      headers: { 'retry-after': '1' },
    });
    const first = a.disbursement.deposit(body('a-1'));
    await untilTrue(() => pauses.length > 0);
    expect(pauses).toEqual([{ kind: 'create', ms: 1_000 }]);
    // b's first reservation tells it of the pause; its call waits it out.
    await b.disbursement.deposit(body('b-1'));
    await first;
    const creates = sim.requests.filter((r) => r.method === 'POST' && r.path === DEPOSIT);
    const refused = creates[0];
    const fromB = creates.find((r) => (r.body as { externalId?: string }).externalId === 'b-1');
    expect(creates).toHaveLength(3); // the 429, a's send again, b's
    expect(fromB?.at).toBeGreaterThanOrEqual((refused?.at ?? 0) + 1_000);
    expect(pauses).toHaveLength(1);
  });

  it('a budget without pause keeps the pause per client, as before', async () => {
    const sim = createSimulator({ settleMs: 10 });
    const budget: SharedRateBudget = { reserve: async () => Date.now() };
    const a = sim.client({ createRate: 50, rateBudget: budget });
    sim.inject({
      kind: 'status',
      status: 429,
      match: `POST ${DEPOSIT}`,
      headers: { 'retry-after': '1' },
    });
    await a.disbursement.deposit(body('a-1'));
    const creates = sim.requests.filter((r) => r.method === 'POST' && r.path === DEPOSIT);
    expect(creates).toHaveLength(2);
    expect(creates[1]?.at).toBeGreaterThanOrEqual((creates[0]?.at ?? 0) + 1_000);
  });
});
